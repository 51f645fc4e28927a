// The pages: home, game, analysis, puzzles, lessons, rules, the mails' links, not found. Each page
// load draws the page its path names, from the page's own module. The server referees everything: the pages send
// requests and draw what comes back.
import { applyTheme, translateChrome, listenToSettings, startAppShell } from './lib/chrome.js';
import * as Coach from './lib/coach.js';
import { homePage } from './pages/home.js';
import { gamePage } from './pages/game.js';
import { analysisPage } from './pages/analysis.js';
import { puzzlePage } from './pages/puzzles.js';
import { learnPage } from './pages/learn.js';
import { rulesPage } from './pages/rules.js';
import { confirmPage, unsubscribePage } from './pages/email.js';
import { notFoundPage } from './pages/not-found.js';

function route() {
  applyTheme();
  translateChrome();
  const path = location.pathname;
  const game = path.match(/^\/game\/([0-9a-f]{32})$/);
  if (game) gamePage(game[1]);
  else if (path === '/analysis') analysisPage();
  else if (path === '/rules') rulesPage();
  else if (path === '/puzzles') puzzlePage();
  else if (path === '/learn') learnPage();
  else if (path === '/email/confirm') confirmPage();
  else if (path === '/email/unsubscribe') unsubscribePage();
  else if (path === '/' || path === '/index.html') homePage();
  else notFoundPage();
}

listenToSettings();
startAppShell();
// The colour scheme at once, not after the coach's catalogue has loaded: no flash of the wrong
// scheme, and a reloaded page shows the remembered one from its first paint.
applyTheme();
// The coach's words are loaded first: the pages use them as they are drawn.
Coach.load().catch(() => null).then(route);
