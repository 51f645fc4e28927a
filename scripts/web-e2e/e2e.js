// Browser tests of `oware serve`, run by scripts/test.d/web-e2e.sh.
'use strict';

const { chromium } = require('playwright-core');
const { ARGS, check, ply, waitPly, acceptInvite } = require('./helpers');

const BASE = process.env.E2E_URL;
const OUT = process.env.E2E_OUT || '/tmp';
// Everything the browser refused under the server's Content-Security-Policy, in every page: any is
// a failure (the page would be broken for users in that part).
const cspViolations = [];
// Every script error in every page, and every app file the server did not serve (a module the
// app imports that is missing stops the whole app without a script error): any is a failure.
const pageErrors = [];

async function newPage(browser, opts) {
  const context = await browser.newContext(Object.assign({ viewport: { width: 1100, height: 800 }, locale: 'en-US' }, opts || {}));
  await context.addInitScript(() => localStorage.setItem('oware.animation', 'fast'));
  const page = await context.newPage();
  page.on('pageerror', (e) => {
    console.error('page error:', e.message);
    page.errors = (page.errors || 0) + 1;
    pageErrors.push(e.message);
  });
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/static/') && r.status() >= 400) {
      console.error('not served:', r.url(), r.status());
      pageErrors.push(r.url() + ' ' + r.status());
    }
  });
  await context.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) =>
    console.error(`Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`)));
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) { console.error('CSP:', m.text()); cspViolations.push(m.text()); }
  });
  return { context, page };
}

// The text the last toast showed (a refused click says why in one).
async function toastAfter(page, action) {
  await page.evaluate(() => { document.getElementById('toast').textContent = ''; });
  await action();
  await page.waitForFunction(() => document.getElementById('toast').textContent !== '', null, { timeout: 5000 });
  return page.textContent('#toast');
}

// A phone page fits its screen: no sideways scrolling, and the board (if any) takes at least 90%
// of the width.
async function checkPhoneLayout(page, what) {
  const m = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, width: window.innerWidth,
    board: document.querySelector('#app svg.board') ? document.querySelector('#app svg.board').getBoundingClientRect().width : null,
    header: document.querySelector('header.top').getBoundingClientRect().height,
  }));
  check(m.scroll <= m.width, `${what}: no horizontal scroll (${m.scroll} > ${m.width})`);
  if (m.board !== null) check(m.board >= 0.9 * m.width, `${what}: the board is ${m.board}px of ${m.width}`);
  check(m.header < 60, `${what}: the header stays on one line (${m.header}px)`);
}

// Every page has one h1, and its status line is announced to screen readers.
async function checkStructure(page, what) {
  const h1 = await page.$$eval('h1', (els) => els.length);
  check(h1 === 1, `${what}: one h1, not ${h1}`);
  check(!/\bnull\b/.test(await page.textContent('#app')), `${what}: no stray "null"`);
}

// The contrast between two CSS colours, as WCAG defines it.
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map((x) => Number(x) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

// Starts a game against the computer at level 1 on `side` and waits for the player's first turn.
async function startComputerGame(page, side) {
  await page.goto(BASE + '/');
  await page.selectOption('#computer-form select[name=level]', '1');
  await page.selectOption('#computer-form select[name=side]', side);
  await page.click('#play-computer');
  await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  await page.waitForSelector('g.house.legal');
}

// Plays first legal houses (alternating mouse and keyboard) until the game ends.
async function gameAgainstComputer(browser) {
  const { context, page } = await newPage(browser);
  await startComputerGame(page, 'N');
  let moves = 0;
  let retries = 0;
  let stale = 0;
  while (true) {
    await page.waitForFunction(() => document.body.dataset.over === '1' || document.querySelector('g.house.legal'), null, { timeout: 20000 });
    if (await page.evaluate(() => document.body.dataset.over === '1')) break;
    const before = await ply(page);
    // Read the house without waiting: the computer's reply may have redrawn the board (or ended the
    // game) since the wait above, and then the loop looks again instead of waiting for a house that
    // will not come.
    const letter = await page.evaluate(() => document.querySelector('g.house.legal')?.dataset.house);
    if (!letter) {
      stale++;
      check(stale < 100, 'the board settles after a reply');
      continue;
    }
    // The board can be redrawn between reading a legal house and acting on it (a state arriving
    // late): then the house is no longer offered and the move is tried again from the new board,
    // a bounded number of times.
    try {
      if (moves % 2 === 0) await page.click(`g.house.legal[data-house="${letter}"]`, { timeout: 5000 });
      else await page.keyboard.press(letter.toLowerCase());
      await page.waitForFunction((b) => Number(document.body.dataset.ply) > b, before, { timeout: 20000 });
    } catch (e) {
      retries++;
      check(retries < 5, 'a move offered on the board can be played: ' + e.message.split('\n')[0]);
      continue;
    }
    moves++;
    check(moves < 300, 'the game ends');
  }
  const status = await page.textContent('#status');
  check(/won|lost|Draw/.test(status), 'result shown: ' + status);
  const record = await (await page.request.get(page.url().replace('/game/', '/api/games/') + '/record')).text();
  check(record.includes('[Result'), 'record downloadable');
  // The winner's score first (a draw: the reader's, North's here).
  const end = (await (await page.request.get(page.url().replace('/game/', '/api/games/'))).json()).end;
  const [south, north] = end.score.split('-');
  const first = end.winner === 'S' ? south + '–' + north : north + '–' + south;
  check(status.includes(first), `the winner's score first: "${status}" for ${JSON.stringify(end)}`);
  // After the end: no undo, no key hint, a rematch and a new game; the result is not written in
  // the accent colour.
  check(await page.isHidden('#undo'), 'no undo after the end');
  check(await page.isVisible('#new-game'), 'a new game beside the rematch');
  // Captures are marked in the move list, and each move number stays on the line of its moves.
  const captures = await page.$$eval('#moves span.ply.took .capture', (els) => els.map((e) => e.textContent));
  check(captures.length > 0 && captures.every((c) => /^×\d+$/.test(c)), 'captures marked: ' + captures);
  const split = await page.$$eval('#moves .pair', (els) => els.filter((e) => {
    // Each part's middle (padding makes the move's box taller than its number's); a part on
    // another line would be a whole line (about 29 px) away.
    const mids = [...e.children].map((c) => { const r = c.getBoundingClientRect(); return (r.top + r.bottom) / 2; });
    return mids.some((y) => Math.abs(y - mids[0]) > 8);
  }).map((e) => e.textContent));
  check(split.length === 0, 'move numbers kept with their moves: ' + split);
  check((await page.textContent('.keys-hint')) === '', 'no key hint after the end');
  const colours = await page.evaluate(() => [getComputedStyle(document.getElementById('status')).color,
    getComputedStyle(document.querySelector('button#rematch')).backgroundColor]);
  check(colours[0] !== colours[1], 'the result is not in the accent colour: ' + colours);
  await page.screenshot({ path: OUT + '/game-over.png' });
  // Back through the moves: a click on the first move shows the position after it; the arrow keys
  // step on, and past the last move the game is shown again.
  await page.click('#moves span.ply[data-ply="1"]');
  await page.waitForSelector('#live', { state: 'visible' });
  check(/after 1\. [A-F]$/.test(await page.textContent('#status')), 'looking at South\'s first move, named as the list numbers it: ' + await page.textContent('#status'));
  check(await page.getAttribute('g.house[data-house]', 'aria-label') !== null, 'houses labelled while looking back');
  await page.keyboard.press('ArrowRight');
  check(/after 1\.\.\. [a-f]$/.test(await page.textContent('#status')), 'the right arrow steps on to North\'s first move');
  await page.click('#live');
  await page.waitForSelector('#live', { state: 'hidden' });
  check(/won|lost|Draw/.test(await page.textContent('#status')), 'back to the game');
  // The game is among "My games" on the home page.
  const gameUrl = page.url();
  await page.goto(BASE + '/');
  await page.waitForSelector('#my-games li');
  check(await page.$(`#my-games a[href="${new URL(gameUrl).pathname}"]`), 'the game is in My games');
  // Forgetting it takes it off the list, for good (a reload does not bring it back); its link
  // still opens the game with the player's seat.
  const listed = async () => page.$$eval('#my-games li a', (as) => as.map((a) => a.getAttribute('href')));
  const before = await listed();
  await page.screenshot({ path: OUT + '/my-games.png', fullPage: true });
  await page.click(`#my-games li:has(a[href="${new URL(gameUrl).pathname}"]) button.forget`);
  check(!(await listed()).includes(new URL(gameUrl).pathname) && (await listed()).length === before.length - 1, 'forgotten: ' + JSON.stringify(await listed()));
  await page.reload();
  await page.waitForTimeout(300);
  check(!(await listed()).includes(new URL(gameUrl).pathname), 'still forgotten after a reload');
  await page.goto(gameUrl);
  await page.waitForSelector('#rematch', { state: 'visible' });
  // The rematch swaps the sides: this time we are South.
  await page.click('#rematch');
  await page.waitForURL((u) => u.href !== gameUrl && /\/game\/[0-9a-f]{32}$/.test(u.href));
  await page.waitForSelector('g.house.legal');
  check(/[A-F]/.test(await page.getAttribute('g.house.legal', 'data-house')), 'the rematch has us South');
  console.log(`computer game: ${moves} moves of ours, "${status}", then a rematch`);
  check(!page.errors, 'no script errors');
  await context.close();
}

// Two people in two browser contexts; North reloads in the middle and resumes; a third watches.
async function friendGame(browser) {
  const a = await newPage(browser);
  await a.page.goto(BASE + '/');
  await a.page.fill('#player-name', 'Grandma Rosa');
  await a.page.selectOption('#friend-form select[name=side]', 'S');
  await a.page.click('#play-friend');
  await a.page.waitForSelector('#share-link');
  const link = await a.page.inputValue('#share-link');
  // Waiting for the friend is one state: said so, no house offered, a click says why; the link
  // comes with a QR code and a warning that 127.0.0.1 only works on this computer.
  await a.page.waitForFunction(() => document.body.dataset.waiting === '1');
  check((await a.page.textContent('#status')).includes('Waiting for your friend'), 'waiting for the friend');
  check((await a.page.$$('g.house.legal')).length === 0, 'no move offered before the friend comes');
  check((await toastAfter(a.page, () => a.page.click('g.house[data-house="F"]', { force: true }))).includes('not opened the link'), 'a click says the friend has not come');
  check(await a.page.$('#share svg.qr path'), 'a QR code of the link');
  check(await a.page.isVisible('#local-warning'), 'a warning about the local address');
  await a.page.screenshot({ path: OUT + '/friend-waiting.png' });
  check(/#i=[0-9a-f]{32}$/.test(link), 'the invitation carries its code in the fragment: ' + link);
  const b = await newPage(browser, { viewport: { width: 390, height: 844 }, locale: 'fr-FR' });
  await b.page.goto(link);
  await b.page.waitForSelector('#invited-name');
  check((await b.page.textContent('#invited h2')).includes('Grandma Rosa vous invite'), 'the invitation names who invites: ' + await b.page.textContent('#invited h2'));
  await b.page.screenshot({ path: OUT + '/invited-phone-fr.png' });
  await b.page.fill('#invited-name', 'Léo <b>');
  await b.page.click('#invited-play');
  await b.page.waitForFunction(() => document.body.dataset.ply === '0');
  check(!b.page.url().includes('#i='), 'the code leaves the address bar: ' + b.page.url());
  await a.page.waitForSelector('#share-link', { state: 'hidden' });
  // Houses are buttons with spoken labels, in the page's language.
  check(await a.page.getAttribute('g.house[data-house="C"]', 'aria-label') === 'South’s house C, 4 seeds', 'English house label');
  check(await b.page.getAttribute('g.house[data-house="C"]', 'aria-label') === 'Case C de Sud, 4 graines', 'French house label');
  check(await a.page.getAttribute('g.house[data-house="C"]', 'role') === 'button', 'a house is a button');
  check(await a.page.getAttribute('g.house[data-house="C"]', 'tabindex') === '0', 'a house is focusable');
  check(await a.page.getAttribute('#status', 'aria-live') === 'polite', 'the status is announced');
  // Why a house cannot be played: the opponent's; for North, not its turn.
  check((await toastAfter(a.page, () => a.page.click('g.house[data-house="b"]', { force: true }))).includes('belongs to your opponent'), 'opponent\'s house refused with a reason');
  check((await toastAfter(b.page, () => b.page.click('g.house[data-house="b"]', { force: true }))).includes('pas votre tour'), 'not your turn, in French');
  // South plays F from the keyboard: focus the house, press Enter.
  await a.page.focus('g.house[data-house="F"]');
  await a.page.keyboard.press('Enter');
  await waitPly(b.page, 1);
  check((await b.page.textContent('.player.top')).includes('Sud\u00a0: Grandma Rosa'), 'French typography and the friend\'s name: ' + await b.page.textContent('.player.top'));
  check((await b.page.textContent('.player.bottom')).includes('Vous (Léo <b>)'), 'the name as plain text: ' + await b.page.textContent('.player.bottom'));
  check((await a.page.textContent('.player.top')).includes('North: Léo <b>'), 'South sees North\'s name: ' + await a.page.textContent('.player.top'));
  check(!(await b.page.$('.player b')), 'no markup from a name');
  // While South's move is sown, North's page says so; then that it is North's turn.
  await b.page.waitForFunction(() => document.getElementById('status').textContent.includes('À vous'), null, { timeout: 5000 });
  await b.page.reload();
  await waitPly(b.page, 1);
  await b.page.waitForSelector('g.house.legal');
  check((await b.page.getAttribute('g.house.legal', 'data-house')).match(/[a-f]/), 'North resumes as North');
  // A browser that kept no storage still resumes: the server's HttpOnly seat cookie says who.
  check(!(await b.page.evaluate(() => document.cookie)).includes('oware_seat'), 'the seat cookie is HttpOnly');
  await b.page.evaluate(() => localStorage.clear());
  await b.page.reload();
  await waitPly(b.page, 1);
  await b.page.waitForSelector('g.house.legal');
  check((await b.page.getAttribute('g.house.legal', 'data-house')).match(/[a-f]/), 'North resumes by cookie alone');
  // The private link to continue on another device resumes North in a fresh browser context.
  const resumeLink = await b.page.inputValue('#resume-link');
  check(/\/game\/[0-9a-f]+#t=[0-9a-f]{32}$/.test(resumeLink), 'private resume link, the token in the fragment: ' + resumeLink);
  const other = await newPage(browser);
  // What reaches the server: never the token (the fragment stays in the browser).
  const requested = [];
  other.page.on('request', (r) => requested.push(r.url()));
  await other.page.goto(resumeLink);
  await waitPly(other.page, 1);
  const token = resumeLink.split('#t=')[1];
  check(!requested.some((u) => u.includes(token)), 'the private link\'s token is in no request: ' + requested.join(' '));
  check(!other.page.url().includes(token), 'the token is dropped from the address bar: ' + other.page.url());
  await other.page.waitForSelector('g.house.legal');
  check((await other.page.getAttribute('g.house.legal', 'data-house')).match(/[a-f]/), 'North on another device');
  await other.context.close();
  // A third person opens the invitation too: told at once that the seats are taken, by whom,
  // and how to get in; no name asked first.
  const watcher = await newPage(browser);
  await watcher.page.goto(link);
  await waitPly(watcher.page, 1);
  check(!(await watcher.page.$('#invited-name')), 'no name is asked of a visitor who can only watch');
  check((await watcher.page.textContent('#status')).includes('watching'), 'third visitor watches');
  const note = await watcher.page.textContent('#seat-note');
  check(note.includes('Both seats are taken (Grandma Rosa and Léo <b>)'), 'the watcher is told who plays: ' + note);
  check((await watcher.page.textContent('h1')).includes('Grandma Rosa vs Léo <b>'), 'spectators see both names');
  check((await watcher.page.$$('g.house.legal')).length === 0, 'watcher cannot move');
  // South's page is in the background when North moves: its title says so until it is back.
  const setHidden = (page, hidden) => page.evaluate((hidden) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
  await setHidden(a.page, true);
  await b.page.keyboard.press('a');
  await waitPly(a.page, 2);
  await a.page.waitForFunction(() => document.title.startsWith('●'), null, { timeout: 5000 });
  await setHidden(a.page, false);
  await a.page.waitForFunction(() => !document.title.startsWith('●'), null, { timeout: 5000 });
  await waitPly(watcher.page, 2);
  check((await a.page.textContent('#moves')).includes('1. F a'), 'move list in notation');
  await b.page.screenshot({ path: OUT + '/friend-phone.png' });
  console.log('friend game: two players, one reload, one watcher');
  for (const x of [a, b, watcher]) { check(!x.page.errors, 'no script errors'); await x.context.close(); }
}

// Safe invitations between a grandmother (Spanish, desktop) and her grandson (English, phone):
// her own browser opening the link keeps her seat; the plain address only lets people watch and
// says how to get in; a new link shuts the old one; a seat taken by the wrong person is freed
// before the first move; names reach the board and My games; all games download as one file.
async function invitations(browser) {
  const a = await newPage(browser, { locale: 'es-ES' });
  await a.page.goto(BASE + '/');
  await a.page.fill('#player-name', 'Abuela Rosa');
  // A double press makes one game.
  await a.page.dblclick('#invite-now');
  await a.page.waitForSelector('#share-link');
  const link = await a.page.inputValue('#share-link');
  const mine = JSON.parse(await a.page.evaluate(() => localStorage.getItem('oware.games')));
  check(mine.length === 1, 'one game per double press: ' + mine.length);
  // She tries her own link: she is still South, and the seat is still free.
  await a.page.goto(link);
  await a.page.waitForSelector('#share-link');
  check(await a.page.inputValue('#share-link') === link, 'the creator keeps her seat and her link');
  // The game's plain address lets people watch, and says how to get in.
  const plain = await newPage(browser);
  await plain.page.goto(link.split('#')[0]);
  await plain.page.waitForSelector('#seat-note:not([hidden])');
  check((await plain.page.textContent('#seat-note')).includes('open the invitation link Abuela Rosa sent you'), 'how to get in: ' + await plain.page.textContent('#seat-note'));
  await plain.page.screenshot({ path: OUT + '/seat-needs-link.png' });
  await plain.context.close();
  // A new link: the old one lets nobody in.
  await a.page.click('#new-link');
  await a.page.waitForFunction((old) => document.getElementById('share-link').value !== old, link);
  const second = await a.page.inputValue('#share-link');
  const late = await newPage(browser);
  await acceptInvite(late.page, link, 'Old link');
  await late.page.waitForSelector('#seat-note:not([hidden])');
  check((await late.page.textContent('#status')).includes('watching'), 'the old link only lets people watch');
  await late.context.close();
  // The wrong person (in French) takes the seat; she frees it before the first move.
  const wrong = await newPage(browser, { locale: 'fr-FR' });
  await acceptInvite(wrong.page, second, 'Voisin');
  await wrong.page.waitForFunction(() => document.body.dataset.ply === '0');
  await a.page.waitForSelector('#free-seat');
  check((await a.page.textContent('.player.top')).includes('Voisin'), 'she sees who took the seat');
  await a.page.screenshot({ path: OUT + '/free-seat-es.png' });
  await a.page.click('#free-seat');
  await wrong.page.waitForSelector('#seat-note:not([hidden])');
  check((await wrong.page.textContent('#seat-note')).includes('libéré votre place'), 'the freed visitor is told: ' + await wrong.page.textContent('#seat-note'));
  await wrong.page.screenshot({ path: OUT + '/seat-freed-fr.png' });
  await a.page.waitForSelector('#share-link');
  const third = await a.page.inputValue('#share-link');
  check(third !== second, 'freeing the seat makes a new link');
  // The grandson, on his phone, with the newest link.
  const g = await newPage(browser, { viewport: { width: 390, height: 844 } });
  await acceptInvite(g.page, third, 'Léo');
  await waitPly(g.page, 0);
  await a.page.waitForSelector('g.house.legal');
  await a.page.click('g.house.legal[data-house="F"]');
  await waitPly(g.page, 1);
  check((await g.page.textContent('.player.top')).includes('South: Abuela Rosa'), 'he sees her name: ' + await g.page.textContent('.player.top'));
  check((await a.page.textContent('h1')).includes('Abuela Rosa contra Léo'), 'both names in the title: ' + await a.page.textContent('h1'));
  await g.page.screenshot({ path: OUT + '/names-phone.png' });
  // He has not moved yet: he may call the game off, and it ends with no result.
  check(await a.page.isHidden('#abort'), 'no abort after one\'s own first move');
  await g.page.click('#abort');
  await a.page.waitForFunction(() => document.body.dataset.over === '1');
  check((await a.page.textContent('#status')).includes('Partida anulada: sin resultado'), 'aborted, in Spanish: ' + await a.page.textContent('#status'));
  check((await g.page.textContent('#status')).includes('Game aborted: no result'), 'aborted, in English: ' + await g.page.textContent('#status'));
  // My games names him, and gives every game as one file.
  await a.page.goto(BASE + '/');
  await a.page.waitForSelector('#my-games li');
  check((await a.page.textContent('#my-games')).includes('Léo'), 'My games names the friend: ' + await a.page.textContent('#my-games'));
  await a.page.screenshot({ path: OUT + '/my-games-names-es.png', fullPage: true });
  const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.click('#download-all')]);
  const file = require('fs').readFileSync(await download.path(), 'utf8');
  check(download.suggestedFilename() === 'oware-games.ogn', 'the file name: ' + download.suggestedFilename());
  check(file.includes('[South "Abuela Rosa"]') && file.includes('[North "Léo"]'), 'the record names both: ' + file.slice(0, 300));
  check(file.includes('[Termination "aborted"]') && file.includes('[Result "*"]'), 'an aborted game has no result: ' + file.slice(0, 400));
  for (const x of [a, wrong, g]) { check(!x.page.errors, 'no script errors'); await x.context.close(); }
  console.log('invitations: own link, plain address, new link, freed seat, names, download all');
}

// A correspondence game, grandfather (Catalan) and granddaughter (English, phone): two days a
// move, shown in days and hours; her My games says it is her move, and the tab says so too.
async function correspondence(browser) {
  const a = await newPage(browser, { locale: 'ca-ES' });
  await a.page.goto(BASE + '/');
  await a.page.fill('#player-name', 'Avi Pere');
  await a.page.selectOption('#friend-form select[name=side]', 'S');
  await a.page.selectOption('#friend-form select[name=clock]', 'd2');
  await a.page.click('#play-friend');
  await a.page.waitForSelector('#share-link');
  const link = await a.page.inputValue('#share-link');
  const b = await newPage(browser, { viewport: { width: 390, height: 844 } });
  await acceptInvite(b.page, link, 'Júlia');
  await a.page.waitForSelector('g.house.legal');
  check((await a.page.textContent('.player.bottom .clock')) === '2 d 0 h', 'two days a move: ' + await a.page.textContent('.player.bottom .clock'));
  await a.page.click('g.house.legal[data-house="F"]');
  await waitPly(b.page, 1);
  await b.page.waitForSelector('.player.bottom .clock.running');
  const left = await b.page.textContent('.player.bottom .clock');
  check(/^(1 d 23 h|2 d 0 h)$/.test(left), 'her two days run: ' + left);
  await b.page.goto(BASE + '/');
  await b.page.waitForSelector('#turns');
  check((await b.page.textContent('#turns')) === 'your move in 1 game', 'a badge: ' + await b.page.textContent('#turns'));
  check((await b.page.textContent('#my-games li.turn')).includes('Avi Pere'), 'the game that waits names him');
  check((await b.page.title()).startsWith('(1) '), 'the tab says so: ' + await b.page.title());
  await b.page.screenshot({ path: OUT + '/my-games-your-move-phone.png', fullPage: true });
  for (const x of [a, b]) { check(!x.page.errors, 'no script errors'); await x.context.close(); }
  console.log('correspondence: two days a move, a your-move badge');
}

// Two friends, the second in Spanish: a takeback asked and granted, a draw offered, declined,
// offered again and accepted; a rematch with the sides swapped, which one of them resigns.
async function friendConveniences(browser) {
  const a = await newPage(browser);
  await a.page.goto(BASE + '/');
  await a.page.selectOption('#friend-form select[name=side]', 'S');
  await a.page.click('#play-friend');
  const link = await a.page.inputValue('#share-link');
  const b = await newPage(browser, { locale: 'es-ES' });
  await acceptInvite(b.page, link, 'Nieta');
  await a.page.waitForSelector('#share-link', { state: 'hidden' });
  check(await a.page.isHidden('#undo'), 'no undo between friends');
  // Quick messages: sent as codes, read in each one's language (by those connected: wait for
  // both pages' connections).
  await waitPly(b.page, 0);
  await a.page.click('#say-good-luck');
  await b.page.waitForSelector('#said:not([hidden])');
  check((await b.page.textContent('#said')).includes('Sur dice: ¡Buena suerte!'), 'the message in Spanish: ' + await b.page.textContent('#said'));
  await b.page.click('#say-thank-you');
  await a.page.waitForSelector('#said:not([hidden])');
  check((await a.page.textContent('#said')).includes('Nieta says: Thank you'), 'the answer in English: ' + await a.page.textContent('#said'));
  await b.page.screenshot({ path: OUT + '/quick-message-es.png' });
  check(await a.page.isVisible('#free-seat'), 'the one who invited may free the seat before the first move');
  check(!(await b.page.isVisible('#free-seat')), 'the invited friend may not');
  await a.page.click('g.house.legal[data-house="F"]');
  await waitPly(b.page, 1);
  await b.page.waitForSelector('g.house.legal');
  await b.page.click('g.house.legal[data-house="a"]');
  await waitPly(a.page, 2);
  // South asks to take back F; North (in Spanish) is asked, and grants it: both moves go.
  await a.page.waitForSelector('#offer-takeback:not([disabled])');
  await a.page.click('#offer-takeback');
  await a.page.waitForSelector('#offer #withdraw');
  await b.page.waitForSelector('#offer #accept');
  check((await b.page.textContent('#offer')).includes('deshacer'), 'the takeback request in Spanish: ' + await b.page.textContent('#offer'));
  await b.page.click('#offer #accept');
  await waitPly(a.page, 0);
  await waitPly(b.page, 0);
  await a.page.waitForSelector('#offer', { state: 'hidden' });
  // A draw offered by North, declined by South, then offered again and accepted.
  await a.page.waitForSelector('g.house.legal');
  await a.page.click('g.house.legal[data-house="E"]');
  await waitPly(b.page, 1);
  await b.page.click('#offer-draw');
  await a.page.waitForSelector('#offer #decline');
  check((await a.page.textContent('#offer')).includes('offers a draw'), 'the draw offer');
  await a.page.click('#offer #decline');
  await b.page.waitForSelector('#offer', { state: 'hidden' });
  await b.page.click('#offer-draw');
  await a.page.waitForSelector('#offer #accept');
  await a.page.screenshot({ path: OUT + '/friend-draw-offer.png' });
  await a.page.click('#offer #accept');
  await a.page.waitForFunction(() => document.body.dataset.over === '1');
  await b.page.waitForFunction(() => document.body.dataset.over === '1');
  check((await a.page.textContent('#status')).includes('Draw'), 'a draw: ' + await a.page.textContent('#status'));
  check((await b.page.textContent('#status')).includes('Tablas'), 'in Spanish: ' + await b.page.textContent('#status'));
  check(await a.page.isHidden('#resign'), 'no resigning after the end');
  // A watcher of the finished game is taken to the rematch when the players start it.
  const first = a.page.url();
  const watcher = await newPage(browser);
  await watcher.page.goto(first);
  await watcher.page.waitForFunction(() => document.body.dataset.over === '1');
  // South asks for the rematch and plays North there; North is offered the same game as South.
  await a.page.click('#rematch');
  await a.page.waitForURL((u) => u.href !== first);
  await b.page.waitForSelector('#open-rematch');
  await b.page.click('#open-rematch');
  await b.page.waitForURL((u) => u.href !== first);
  check(a.page.url() === b.page.url(), 'both in the same rematch');
  await b.page.waitForSelector('g.house.legal');
  check(/[A-F]/.test(await b.page.getAttribute('g.house.legal', 'data-house')), 'North is South in the rematch');
  // South's page learns of the join by a message; it needs no waiting room.
  const started = await a.page.waitForFunction(() => document.body.dataset.waiting === '0', null, { timeout: 5000 })
    .then(() => true, () => false);
  check(started, 'the rematch starts at once');
  // The new North resigns (two presses): the new South wins.
  await a.page.waitForSelector('#resign:not([hidden])');
  await a.page.click('#resign');
  check((await a.page.textContent('#resign')).includes('Really'), 'resigning asks for a second press');
  await a.page.click('#resign');
  // Each page learns of the end from its own connection: wait for both before reading them.
  for (const x of [a, b]) await x.page.waitForFunction(() => document.body.dataset.over === '1');
  check((await b.page.textContent('#status')).includes('Has ganado'), 'the resignation, in Spanish: ' + await b.page.textContent('#status'));
  check((await a.page.textContent('#status')).includes('resignation'), 'the reason: ' + await a.page.textContent('#status'));
  await watcher.page.waitForURL(a.page.url());
  await watcher.page.waitForFunction(() => document.body.dataset.over === '1');
  const seen = await watcher.page.textContent('#status');
  check(seen.includes('South wins') && seen.includes('by resignation') && !seen.includes('0–0'), 'the watcher followed, and reads no 0–0: ' + seen);
  await watcher.context.close();
  await b.page.screenshot({ path: OUT + '/friend-resigned-es.png' });
  for (const x of [a, b]) { check(!x.page.errors, 'no script errors'); await x.context.close(); }
  console.log('friend conveniences: takeback, draw declined and accepted, rematch, resignation');
}

// A game against the computer on a clock with an increment (5+3): both clocks shown, the
// player's running on their turn.
async function clockGame(browser) {
  const { context, page } = await newPage(browser);
  await page.goto(BASE + '/');
  await page.selectOption('#computer-form select[name=clock]', '5+3');
  await page.click('#play-computer');
  await page.waitForSelector('g.house.legal');
  await page.click('g.house.legal');
  await waitPly(page, 2);
  await page.waitForSelector('.player.bottom .clock.running');
  const clocks = await page.$$eval('.player .clock', (els) => els.map((e) => e.textContent));
  check(clocks.length === 2 && clocks.every((c) => /^\d:\d\d$/.test(c)), 'two clocks: ' + clocks);
  check(/^5:0[1-3]$/.test(clocks[0]), 'the computer gained its increment: ' + clocks);
  check(!page.errors, 'no script errors');
  await context.close();
  console.log('clock game: 5+3 against the computer');
}

// A clock of the player's own length: 7 minutes and 2 seconds a move; one too long is refused
// with the reason, in the form.
async function customClock(browser) {
  const { context, page } = await newPage(browser);
  await page.goto(BASE + '/');
  check(await page.isHidden('#computer-form .custom-clock'), 'the custom fields wait for "custom"');
  await page.selectOption('#computer-form select[name=clock]', 'custom');
  await page.fill('#computer-form input[name=minutes]', '200');
  await page.click('#play-computer');
  await page.waitForFunction(() => document.querySelector('#computer-form .form-error').textContent !== '');
  const refused = await page.textContent('#computer-form .form-error');
  check(refused.includes('from 1 to 180 minutes'), 'a clock too long is refused: ' + refused);
  await page.fill('#computer-form input[name=minutes]', '7');
  await page.fill('#computer-form input[name=increment]', '2');
  await page.click('#play-computer');
  await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  await page.waitForSelector('g.house.legal');
  await page.click('g.house.legal');
  await waitPly(page, 2);
  await page.waitForSelector('.player.bottom .clock.running');
  const clocks = await page.$$eval('.player .clock', (els) => els.map((e) => e.textContent));
  check(/^7:0[0-2]$/.test(clocks[0]) && /^7:0[0-2]$/.test(clocks[1]), 'two 7-minute clocks with 2 s a move: ' + clocks);
  check(!page.errors, 'no script errors');
  await context.close();
  // The custom fields and the set-up board fit a phone, in French.
  const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, locale: 'fr-FR' });
  await phone.page.goto(BASE + '/');
  await phone.page.selectOption('#friend-form select[name=clock]', 'custom');
  await phone.page.selectOption('#friend-form select[name=start]', 'setup');
  check((await phone.page.textContent('#friend-form .custom-clock')).includes('Secondes ajoutées par coup'), 'the custom fields in French');
  await checkPhoneLayout(phone.page, 'the custom clock and set-up board');
  await (await phone.page.$('#friend-form')).screenshot({ path: OUT + '/custom-clock-phone-fr.png' });
  check(!phone.page.errors, 'no script errors');
  await phone.context.close();
  console.log('custom clock: 7+2 against the computer, 200 minutes refused, fields on a phone in French');
}

// A game against the computer from a set-up position: pasted as a string, changed by taps on +
// and - and by typing, a wrong total and a finished position refused with the reason, then the
// game's board shows the position, seed for seed.
async function setUpPosition(browser) {
  for (const [name, viewport] of [['desktop', { width: 1100, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
    const { context, page } = await newPage(browser, { viewport });
    await page.goto(BASE + '/');
    check(await page.isHidden('#computer-setup'), 'the set-up board waits for "a position"');
    await page.selectOption('#computer-form select[name=start]', 'setup');
    await page.waitForSelector('#computer-setup', { state: 'visible' });
    await page.fill('#computer-position', '0-3-0-2-1-5-6-0-4-1-2-0-12-12-S');
    await page.click('#computer-setup button[aria-label="One more seed: South’s house A"]');
    check((await page.textContent('#computer-setup .setup-count')) === 'Seeds: 49 of 48', 'the count follows a tap');
    await page.click('#play-computer');
    const total = await page.textContent('#computer-form .form-error');
    check(total === 'The houses and stores must hold 48 seeds in all, not 49.', 'a wrong total is refused: ' + total);
    check(/\/$/.test(page.url()), 'no game made with 49 seeds');
    await page.click('#computer-setup button[aria-label="One seed fewer: South’s house B"]');
    await page.fill('#computer-setup input[aria-label="South’s house C"]', '1');
    await page.fill('#computer-setup input[aria-label="South’s house D"]', '1');
    const position = '1-2-1-1-1-5-6-0-4-1-2-0-12-12-S';
    check(await page.inputValue('#computer-position') === position, 'the string follows the fields: ' + await page.inputValue('#computer-position'));
    await page.screenshot({ path: `${OUT}/setup-${name}.png`, fullPage: true });
    if (name === 'phone') await checkPhoneLayout(page, 'the set-up board');
    // Under abapa, South's one seed that cannot reach North's empty row leaves no move.
    await page.fill('#computer-position', '1-0-0-0-0-0-0-0-0-0-0-0-24-23-S');
    await page.click('#play-computer');
    await page.waitForFunction(() => document.querySelector('#computer-form .form-error').textContent !== '');
    const over = await page.textContent('#computer-form .form-error');
    check(over.includes('already over'), 'a finished position is refused: ' + over);
    await page.screenshot({ path: `${OUT}/setup-refused-${name}.png`, fullPage: true });
    await page.fill('#computer-position', position);
    await page.selectOption('#computer-form select[name=level]', '1');
    await page.click('#play-computer');
    await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
    await page.waitForSelector('g.house.legal');
    check(await ply(page) === 0, 'South moves first from the set-up position');
    const counts = await page.$$eval('g.house[data-house]', (gs) =>
      Object.fromEntries(gs.map((g) => [g.dataset.house, Number(g.getAttribute('aria-label').match(/, (\d+) seeds?/)[1])])));
    const expected = position.split('-').slice(0, 12).map(Number);
    check([...'ABCDEFabcdef'].every((l, i) => counts[l] === expected[i]), 'the board shows the position: ' + JSON.stringify(counts));
    const stores = await page.$$eval('svg.board g[data-store] .store-count', (els) => els.map((e) => e.textContent));
    check(stores.length === 2 && stores.every((s) => s === '12'), 'both stores hold 12: ' + stores);
    await page.screenshot({ path: `${OUT}/setup-game-${name}.png`, fullPage: true });
    check(!page.errors, 'no script errors');
    await context.close();
  }
  console.log('set-up position: typed, tapped and pasted, checked, and played against the computer');
}

// The game page's edges, in French on a phone: the language menu's label, the levels' words, a
// lost connection (no house playable, the clock stands still, back by itself), the board flipped,
// and the rules' capture diagram after its move.
async function gamePageEdges(browser) {
  const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 }, locale: 'fr-FR' });
  let dropping = false;
  const sockets = [];
  await page.routeWebSocket(/\/ws$/, (ws) => {
    if (dropping) { ws.close(); return; }
    ws.connectToServer();
    sockets.push(ws);
  });
  await page.goto(BASE + '/');
  // The header is translated once the page's words have loaded.
  const labelled = await page.waitForFunction(() => document.getElementById('lang').getAttribute('aria-label') === 'Langue', null, { timeout: 5000 })
    .then(() => true, () => false);
  check(labelled, 'the language menu is labelled in French: ' + await page.getAttribute('#lang', 'aria-label'));
  check((await page.textContent('#computer-form select[name=level] option[value="1"]')).includes('débutant'), 'levels have words');
  await page.selectOption('#computer-form select[name=level]', '1');
  await page.selectOption('#computer-form select[name=clock]', '5');
  await page.click('#play-computer');
  await page.waitForSelector('g.house.legal');
  await page.click('g.house.legal[data-house="F"]');
  await waitPly(page, 2);
  await page.waitForSelector('.player.bottom .clock.running');
  // Long enough for the running clock to show less than the server last sent.
  await page.waitForTimeout(2200);
  const seconds = (text) => text.split(':').reduce((total, part) => total * 60 + Number(part.replace(',', '.')), 0);
  const before = await page.textContent('.player.bottom .clock');
  dropping = true;
  for (const ws of sockets) await ws.close();
  await page.waitForFunction(() => document.body.dataset.offline === '1');
  check((await page.textContent('#status')).includes('Connexion perdue'), 'the page says the connection is lost: ' + await page.textContent('#status'));
  check((await page.$$('g.house.legal')).length === 0, 'no house playable while offline');
  const frozen = await page.textContent('.player.bottom .clock');
  await page.waitForTimeout(1500);
  check(await page.textContent('.player.bottom .clock') === frozen, 'the clock stands still while offline');
  check(seconds(frozen) <= seconds(before), `the clock never runs back: ${before}, then ${frozen} once offline`);
  await page.screenshot({ path: OUT + '/connection-lost-fr-phone.png' });
  dropping = false;
  await page.waitForFunction(() => document.body.dataset.offline === '0', null, { timeout: 10000 });
  await page.waitForSelector('g.house.legal');
  // A watcher of this game sees the computer and a player, not a "friend".
  const watcher = await newPage(browser, { locale: 'fr-FR' });
  await watcher.page.goto(page.url());
  await watcher.page.waitForFunction(() => document.body.dataset.ply === '2');
  check((await watcher.page.textContent('.player.bottom')).includes('Sud\u00a0: Joueur'), 'the person playing the computer: ' + await watcher.page.textContent('.player.bottom'));
  await watcher.context.close();
  // The board turned round: North at the bottom, and back.
  check((await page.textContent('.player.bottom')).includes('Sud'), 'South at the bottom');
  await page.click('#flip');
  check((await page.textContent('.player.bottom')).includes('Nord'), 'flipped: North at the bottom');
  await page.click('#flip');
  check((await page.textContent('.player.bottom')).includes('Sud'), 'flipped back');
  await page.goto(BASE + '/rules');
  const caption = await page.textContent('figure.diagram:nth-of-type(2) figcaption').catch(() => '');
  const captions = await page.$$eval('figure.diagram figcaption', (els) => els.map((e) => e.textContent));
  check(captions.some((c) => c.includes('vient de jouer D')), 'the capture diagram is after D: ' + captions + caption);
  await page.screenshot({ path: OUT + '/rules-capture-fr-phone.png', fullPage: true });
  check(!page.errors, 'no script errors');
  await context.close();
  console.log('game page edges: language label, levels, connection lost, flip, rules diagram');
}

// What a bad position is called in each language: errors from the server are shown in the
// page's language.
const BAD_POSITION = { ca: 'no és una posició', es: 'no es una posición', en: 'not a position', fr: 'n’est pas une position' };

async function pages(browser) {
  for (const [w, hgt, tag] of [[1200, 900, 'desktop'], [390, 844, 'phone']]) {
    for (const lang of ['ca', 'es', 'en', 'fr']) {
      const { context, page } = await newPage(browser, { viewport: { width: w, height: hgt }, locale: lang });
      const shot = async (name) => {
        await page.screenshot({ path: `${OUT}/${name}-${lang}-${tag}.png`, fullPage: true });
        check(await page.evaluate(() => document.documentElement.lang) === lang, 'language ' + lang);
        await checkStructure(page, `${name} ${lang} ${tag}`);
        if (tag === 'phone') await checkPhoneLayout(page, `${name} ${lang}`);
        check(!(await page.title()).startsWith('Oware') || name === 'home', `${name} has its own title: ${await page.title()}`);
      };
      for (const path of ['/', '/rules', '/analysis']) {
        await page.goto(BASE + path);
        if (path === '/analysis') {
          await page.fill('#analysis-text', '1. F f 2. E a 3. D b');
          await page.click('#analysis-load');
          await page.waitForFunction(() => document.querySelector('#evaluation').dataset.for === '7-6-6-1-1-2-1-0-9-7-6-2-0-0-S');
          const rows = await page.$$eval('#evaluation tr', (trs) => trs.slice(1).map((tr) => [...tr.cells].map((c) => c.textContent)));
          check(rows.length === 6, 'a value for each of the 6 legal moves: ' + JSON.stringify(rows));
          check(rows.every((r) => /^[A-F]$/.test(r[0]) && r[3].startsWith(r[0])), 'each with its best line: ' + JSON.stringify(rows));
          // The loss against the best: none on the best row, a negative value on the others.
          check(rows[0][2] === '' && rows.slice(1).every((r) => /^-\d/.test(r[2])), 'each with its loss: ' + JSON.stringify(rows));
          // Values in the page's way of writing numbers (a decimal comma but in English), and a
          // value that rounds to nothing without a sign.
          const decimal = lang === 'en' ? /^\D*\d+\.\d\D*$/ : /^\D*\d+,\d\D*$/;
          check(rows.every((r) => !/\d/.test(r[1]) || /[a-zA-Z]/.test(r[1]) || decimal.test(r[1])), `values written as ${lang} writes numbers: ` + JSON.stringify(rows));
          check(rows.every((r) => !/^[-+]0[.,]0$/.test(r[1])), 'no signed zero: ' + JSON.stringify(rows));
        }
        await page.waitForTimeout(100);
        await shot(path.slice(1) || 'home');
      }
      // A bad position gets an error in the page's language, and the old board goes.
      await page.fill('#analysis-text', '1-2-3');
      await page.click('#analysis-load');
      await page.waitForFunction(() => document.getElementById('analysis-error').textContent !== '');
      const err = await page.textContent('#analysis-error');
      check(err.includes(BAD_POSITION[lang]), `bad position in ${lang}: ${err}`);
      check((await page.$$('#app svg.board g.house')).length === 0, 'the old position is cleared after an error');
      await page.screenshot({ path: `${OUT}/analysis-error-${lang}-${tag}.png`, fullPage: true });
      // A game against the computer, and a friend game waiting for the friend.
      await page.goto(BASE + '/');
      await page.click('#play-now');
      await page.waitForSelector('g.house.legal');
      await shot('game');
      await page.goto(BASE + '/');
      await page.click('#invite-now');
      await page.waitForSelector('#share svg.qr');
      await shot('friend-waiting');
      // Pages that do not exist: a game id that is not one, and one the server does not know.
      for (const [path, name] of [['/nonsense', 'not-found'], ['/game/nonsense', 'not-a-game'], ['/game/' + '0'.repeat(32), 'no-such-game']]) {
        const res = await page.goto(BASE + path);
        check(name === 'no-such-game' || res.status() === 404, `${path} answers 404, not ${res.status()}`);
        await page.waitForSelector('#not-found');
        await shot(name);
      }
      check(!page.errors, 'no script errors');
      await context.close();
    }
  }
  // The language menu switches and remembers.
  const { context, page } = await newPage(browser);
  await page.goto(BASE + '/rules');
  await page.selectOption('#lang', 'ca');
  await page.waitForFunction(() => document.documentElement.lang === 'ca');
  check((await page.textContent('h1')).includes('aualé'), 'rules in Catalan');
  await context.close();
  console.log('pages: home, rules, analysis, game, waiting, not found in 4 languages at 2 widths');
}

// A move tried in the middle of a record is kept as a variation beside it.
async function analysisVariation(browser) {
  const { context, page } = await newPage(browser);
  await page.goto(BASE + '/analysis');
  await page.fill('#analysis-text', '1. F f 2. E a 3. D b');
  await page.click('#analysis-load');
  await page.waitForFunction(() => document.querySelector('#evaluation').dataset.for);
  await page.click('#analysis-moves span.ply[data-ply="2"]');
  await page.waitForSelector('#analysis-moves .current[data-ply="2"]');
  await page.click('g.house[data-house="A"]');
  await page.waitForSelector('#variation', { state: 'visible' });
  check((await page.textContent('#analysis-moves')).replace(/\s+/g, ' ').includes('3. D b'), 'the record keeps its moves');
  check((await page.textContent('#variation-moves')).includes('A'), 'the variation shows the move tried');
  await page.screenshot({ path: OUT + '/analysis-variation.png', fullPage: true });
  await page.click('#back-to-record');
  await page.waitForSelector('#variation', { state: 'hidden' });
  // Forced wins read with their unit.
  check(!/\bnull\b/.test(await page.textContent('#app')), 'no stray null');
  check(!page.errors, 'no script errors');
  await context.close();
  console.log('analysis: a variation beside the record');
}

// Dark mode follows the system and can be switched; the board's small letters stay readable.
async function colours(browser) {
  for (const scheme of ['light', 'dark']) {
    const { context, page } = await newPage(browser, { colorScheme: scheme });
    await page.goto(BASE + '/');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = contrast(bg, 'rgb(0, 0, 0)') < contrast(bg, 'rgb(255, 255, 255)');
    check(dark === (scheme === 'dark'), `the page follows the system's ${scheme} scheme (${bg})`);
    // The home page is drawn once its words have loaded: wait for its board.
    await page.waitForSelector('svg.board .frame');
    const pairs = await page.evaluate(() => {
      const frame = getComputedStyle(document.querySelector('svg.board .frame')).fill;
      const muted = getComputedStyle(document.querySelector('.hint')).color;
      return [[getComputedStyle(document.querySelector('svg.board .letter')).fill, frame, 'house letter'],
        [getComputedStyle(document.querySelector('svg.board .count')).fill, frame, 'house count'],
        [muted, getComputedStyle(document.body).backgroundColor, 'small print']];
    });
    for (const [fg, back, what] of pairs) check(contrast(fg, back) >= 4.5, `${what} contrast ${contrast(fg, back).toFixed(2)} in ${scheme}`);
    await page.screenshot({ path: `${OUT}/home-${scheme}-system.png` });
    // The switch overrides the system and is remembered.
    const other = scheme === 'dark' ? 'light' : 'dark';
    await page.selectOption('#theme', other);
    await page.reload();
    check(await page.evaluate(() => document.documentElement.dataset.theme) === other, 'the chosen scheme is remembered');
    const bg2 = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    check(bg2 !== bg, `switching to ${other} changes the colours`);
    await page.screenshot({ path: `${OUT}/home-${other}-chosen.png` });
    check(!page.errors, 'no script errors');
    await context.close();
  }
  console.log('colours: light and dark, system and chosen; contrast of the small letters');
}

// The coach: the words on every legal move beside the analysis board (the seeds' example, in
// English then Catalan), a review of a loaded game whose mistake is shown on the board, and the
// coach's advice and marks on the game page against the computer.
async function coach(browser) {
  for (const [lang, words] of [['en', 'F sows 3 seeds and takes b and c: 5 seeds.'], ['ca', 'F sembra 3 llavors i captura b i c: 5 llavors.'],
    ['es', 'F siembra 3 semillas y captura b y c: 5 semillas.'], ['fr', 'F sème 3 graines et prend b et c\u00a0: 5 graines.']]) {
    const { context, page } = await newPage(browser, { locale: lang });
    await page.goto(BASE + '/analysis');
    await page.fill('#analysis-text', '4-4-4-4-4-3-4-1-2-4-4-4-3-3-S');
    await page.click('#analysis-load');
    // The words on this position, not on the start's: the page loads the start when it opens, and
    // its answer may come after the click.
    await page.waitForFunction(() => document.querySelector('#evaluation').dataset.coached === '4-4-4-4-4-3-4-1-2-4-4-4-3-3-S ',
      null, { timeout: 15000 });
    await page.waitForSelector('#coach-moves li[data-move="F"]', { timeout: 15000 });
    const f = await page.textContent('#coach-moves li[data-move="F"]');
    check(f.includes(words), `the coach says why F is good in ${lang}: ${f}`);
    check(!f.startsWith('F F'), 'the move letter once: ' + f);
    check((await page.$$('#coach-moves li')).length === 6, 'words on each of the 6 legal moves');
    // One truth: the coach's best move is the table's best.
    const tableBest = await page.textContent('#evaluation tr.best td a');
    const coachBest = await page.getAttribute('#coach-moves li', 'data-move');
    check(tableBest === coachBest, `the table's best ${tableBest} is the coach's ${coachBest}`);
    await page.screenshot({ path: `${OUT}/coach-analysis-${lang}.png`, fullPage: true });
    check(!page.errors, 'no script errors');
    await context.close();
  }
  // A game where South's B leaves A to North: the review lists it, and Show goes to the position
  // before it.
  {
    const { context, page } = await newPage(browser);
    await page.goto(BASE + '/analysis');
    await page.fill('#analysis-text', '1-4-4-4-4-4-4-4-4-4-4-1-3-3-S Bc');
    await page.click('#analysis-load');
    await page.waitForSelector('#analysis-moves .current[data-ply="2"]');
    await page.click('#coach-review-button');
    await page.waitForSelector('#coach-review li[data-ply="0"]', { timeout: 15000 });
    const item = await page.textContent('#coach-review li[data-ply="0"]');
    check(item.startsWith('1. B gives away'), 'the review names the mistake: ' + item);
    check(item.includes('North plays') && item.includes('takes A'), 'and says why, by the reply: ' + item);
    await page.click('#coach-review li[data-ply="0"] button');
    await page.waitForFunction(() => document.getElementById('analysis-status').textContent.includes('1-4-4-4-4-4-4-4-4-4-4-1-3-3-S'));
    await page.screenshot({ path: OUT + '/coach-review.png', fullPage: true });
    check(!page.errors, 'no script errors');
    await context.close();
  }
  // Against the computer with the coach on: advice on the player's turn, and after a resignation
  // the review of the game opens on the analysis page.
  {
    const { context, page } = await newPage(browser);
    await startComputerGame(page, 'S');
    await page.check('#coach-toggle');
    await page.waitForSelector('#coach-advice', { timeout: 15000 });
    check((await page.textContent('#coach-advice')).includes('The coach suggests'), 'the coach suggests a move');
    check((await page.textContent('#coach-threats')).length > 0, 'and says what can be taken');
    await page.screenshot({ path: OUT + '/coach-game.png', fullPage: true });
    await page.click('#resign');
    await page.click('#resign');
    await page.waitForSelector('#coach-review-game', { state: 'visible' });
    await page.click('#coach-review-game');
    await page.waitForURL(/\/analysis$/);
    await page.waitForSelector('#coach-review-box section', { timeout: 15000 });
    check(!page.errors, 'no script errors');
    await context.close();
  }
  // The threat marks: from a position where North's f (one seed) sows into South's A (one seed)
  // and takes it, South's A, and only A, is marked at risk, by its outline and its label.
  {
    const { context, page } = await newPage(browser);
    await page.goto(BASE + '/');
    const seat = await page.evaluate(async () => {
      const res = await fetch('/api/games', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'computer', side: 'S', level: 1, position: '1-4-4-4-4-4-4-4-4-4-4-1-3-3-S' }),
      });
      return res.json();
    });
    await page.goto(BASE + '/game/' + seat.id);
    await page.waitForSelector('g.house.legal');
    await page.check('#coach-toggle');
    await page.waitForSelector('g.house.at-risk', { timeout: 15000 });
    const risky = await page.$$eval('g.house.at-risk', (gs) => gs.map((g) => g.dataset.house));
    check(JSON.stringify(risky) === '["A"]', 'only A is marked at risk: ' + JSON.stringify(risky));
    check((await page.getAttribute('g.house[data-house="A"]', 'aria-label')).includes('can be taken now'), 'the label says A is at risk');
    check(!(await page.getAttribute('g.house[data-house="B"]', 'aria-label')).includes('can be taken'), 'B is not at risk');
    await page.screenshot({ path: OUT + '/coach-threat.png', fullPage: true });
    check(!page.errors, 'no script errors');
    await context.close();
  }
  console.log('coach: words on every move in four languages, a review shown on the board, advice and threat marks in a game');
}

// The review that teaches: the evaluation graph over a master game (first of
// shared/data/master_games.suite, Wikimanqala, CC BY-SA 2.5: its first 40 plies), each player's
// accuracy, the turning points with their lines; a click on the graph or a turning point goes to
// the position, and "Play the line" plays the refutation out on the board. In four languages.
const MASTER_GAME = 'FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBc';

async function reviewTeaches(browser) {
  for (const lang of ['en', 'ca', 'es', 'fr']) {
    // French on a phone: the turning points first, the rest folded, nothing wider than the screen.
    const phone = lang === 'fr';
    const { context, page } = await newPage(browser, phone ? { locale: lang, viewport: { width: 390, height: 844 } } : { locale: lang });
    await page.goto(BASE + '/analysis');
    await page.fill('#analysis-text', MASTER_GAME);
    await page.click('#analysis-load');
    await page.waitForSelector(`#analysis-moves .current[data-ply="${MASTER_GAME.length}"]`);
    await page.click('#coach-review-button');
    await page.waitForSelector('#review-graph', { timeout: 60000 });
    const points = await page.$eval('#review-graph .graph-line', (l) => l.getAttribute('points').trim().split(/\s+/).length);
    check(points === MASTER_GAME.length + 1, `one point a position: ${points}`);
    const accuracy = await page.$$eval('#review-accuracy li', (lis) => lis.map((li) => li.textContent));
    check(accuracy.length === 2 && accuracy.every((a) => /\d+\s?%/.test(a)), 'accuracy for each player: ' + accuracy);
    const turning = await page.$$('#review-turning li');
    check(turning.length >= 1 && turning.length <= 5, `1 to 5 turning points: ${turning.length}`);
    const plies = await page.$$eval('#coach-review li[data-ply]', (lis) => lis.map((li) => li.dataset.ply));
    check(new Set(plies).size === plies.length, 'each mistake listed once: ' + plies);
    check(!(await page.$eval('#review-turning li details.review-line', (d) => d.open)), 'the engine\u2019s line is folded');
    const rings = await page.$$('#review-graph .graph-turning');
    check(rings.length === turning.length, 'each turning point ringed on the graph');
    await page.screenshot({ path: `${OUT}/review-${lang}${phone ? '-phone' : ''}.png`, fullPage: true });
    if (phone) await checkPhoneLayout(page, 'review on a phone');
    // A click on a ring goes to the position after that move.
    const ply = Number(await rings[0].getAttribute('data-ply'));
    await rings[0].click();
    await page.waitForSelector(`#analysis-moves .current[data-ply="${ply + 1}"]`);
    const cursor = await page.getAttribute('#review-graph .graph-cursor', 'visibility');
    check(cursor === 'visible', 'the graph marks where the board is');
    // The line played out: a variation from the position before the mistake.
    await page.click('#review-turning li button.play-line');
    await page.waitForSelector('#variation:not([hidden])');
    const first = Number(await page.getAttribute('#review-turning li', 'data-ply'));
    await page.waitForFunction((n) => document.querySelector('#evaluation').dataset.for && document.querySelectorAll('#variation-moves .ply').length > 0, first);
    check(!page.errors, 'no script errors');
    await context.close();
  }
  console.log('review: graph, accuracy, turning points and their lines in four languages');
}

// The analysis board turns round (North at the bottom) and back; a coach error speaks the
// reader's language; a busy engine is asked again until it answers.
async function analysisBoard(browser) {
  const { context, page } = await newPage(browser, { locale: 'fr' });
  await page.goto(BASE + '/analysis');
  await page.fill('#analysis-text', 'FfEa');
  await page.click('#analysis-load');
  await page.waitForSelector('#coach-moves li', { timeout: 15000 });
  const bottom = () => page.$$eval('svg.board g.store-g', (gs) => gs[gs.length - 1].dataset.store);
  check((await bottom()) === 'S', 'South at the bottom');
  await page.click('#analysis-flip');
  check((await bottom()) === 'N', 'flipped: North at the bottom');
  await page.screenshot({ path: `${OUT}/analysis-flipped-fr.png`, fullPage: true });
  await page.click('#analysis-flip');
  check((await bottom()) === 'S', 'flipped back');
  // The forced result reads in moves and plies, as the coach says it.
  await page.fill('#analysis-text', '0-0-0-1-0-1-1-1-0-0-0-0-23-21-S');
  await page.click('#analysis-load');
  await page.waitForFunction(() => document.querySelector('#evaluation').dataset.for === '0-0-0-1-0-1-1-1-0-0-0-0-23-21-S');
  const value = await page.textContent('#evaluation tr.best td.value');
  check(value === 'Sud gagne en 1 coup (1 demi-coup)', 'a forced win in words: ' + value);
  // Errors in French, by their code; "busy" twice, then an answer.
  // The app's own modules, as the page loaded them (the same instances: the catalogue loaded, the
  // page's language).
  const errorIn = await page.evaluate(async () => {
    const Coach = await import('/static/lib/coach.js');
    const { errorText } = await import('/static/lib/api.js');
    try { await Coach.explain('9-9', '', 'abapa'); } catch (e) { return [e.code, errorText(e)]; }
    return null;
  });
  check(errorIn && errorIn[0] === 'bad-position' && errorIn[1].startsWith('Ce n’est pas une position'), 'the error in French: ' + errorIn);
  let busy = 2;
  await page.route('**/api/coach/explain', (route) => {
    if (busy-- > 0) return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"busy","message":"busy"}}' });
    return route.continue();
  });
  const answered = await page.evaluate(async () => {
    const Coach = await import('/static/lib/coach.js');
    return (await Coach.explain('4-4-4-4-4-3-4-1-2-4-4-4-3-3-S', '', 'abapa')).moves.length;
  });
  check(answered === 6 && busy < 0, `asked again after two busy answers: ${answered} moves`);
  check(!page.errors, 'no script errors');
  await context.close();
  console.log('analysis board: flipped, forced results in words, coach errors translated, busy retried');
}

// The puzzle page in every language: a wrong answer is explained, the hint shown, the right answer
// sown on the board, then the next puzzle; a theme chosen keeps to it; a phone fits it.
async function puzzles(browser) {
  const TITLE = { ca: 'Problema 2 de ', es: 'Problema 2 de ', en: 'Puzzle 2 of ', fr: 'Problème 2 sur ' };
  for (const lang of ['ca', 'es', 'en', 'fr']) {
    const { context, page } = await newPage(browser, { locale: lang });
    await page.goto(BASE + '/puzzles');
    await page.waitForSelector('g.house.legal');
    const data = await page.evaluate(async (lang) => (await fetch('/api/puzzles?lang=' + lang)).json(), lang);
    const first = data.puzzles[0];
    check((await page.textContent('#puzzle-title')).includes(first.themeName), 'the title names the theme');
    const GAIN = { ca: 'guanya llavors', es: 'gana semillas', en: 'win seeds', fr: 'gagne des graines' };
    if (first.goal) {
      check((await page.textContent('#puzzle-title')).includes(GAIN[lang]) === (first.goal === 'gain'), 'the title says what the puzzle asks: ' + first.goal);
    }
    const wrong = Object.keys(first.answers).find((m) => m !== first.solution);
    await page.click(`g.house[data-house="${wrong}"]`);
    await page.waitForSelector('#puzzle-feedback.wrong');
    check((await page.textContent('#puzzle-feedback')).length > 10, 'a wrong answer is explained');
    await page.click('#puzzle-hint-button');
    await page.waitForSelector('#puzzle-hint', { state: 'visible' });
    check((await page.textContent('#puzzle-hint')).replace(/\u00a0/g, ' ') === first.hint.replace(/\u00a0/g, ' '), 'the hint is the theme\u2019s');
    await page.screenshot({ path: `${OUT}/puzzle-hint-${lang}.png`, fullPage: true });
    await page.click(`g.house[data-house="${first.solution}"]`);
    await page.waitForSelector('#puzzle-feedback.right');
    // The solution is sown: the board shows the position after it.
    await page.waitForFunction((after) => [...'ABCDEFabcdef'].map((l) => {
      const count = document.querySelector(`g.house[data-house="${l}"] text.count`);
      return count ? count.textContent : '';
    }).join('-') === after.split('-').slice(0, 12).join('-'), first.after, { timeout: 10000 });
    await page.screenshot({ path: `${OUT}/puzzle-solved-${lang}.png`, fullPage: true });
    await page.click('#puzzle-next');
    await page.waitForFunction((title) => document.getElementById('puzzle-title').textContent.startsWith(title), TITLE[lang]);
    check(!(await page.$('#puzzle-feedback.right')), 'the next puzzle starts unanswered');
    await checkStructure(page, `puzzles ${lang}`);
    // One theme: every puzzle shown is of it.
    const theme = data.themes.find((th) => th.theme === 'double-attack');
    await page.selectOption('#puzzle-theme', 'double-attack');
    await page.waitForFunction((name) => document.getElementById('puzzle-title').textContent.includes(name), theme.name);
    check((await page.textContent('#puzzle-title')).includes(' ' + theme.count), 'the count of the theme: ' + theme.count);
    check(!page.errors, 'no script errors');
    await context.close();
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, locale: lang });
    // A theme remembered that the set no longer has: every puzzle is shown instead of an error.
    await phone.context.addInitScript(() => localStorage.setItem('oware.puzzleTheme', 'fork'));
    await phone.page.goto(BASE + '/puzzles');
    await phone.page.waitForSelector('g.house.legal');
    check(await phone.page.inputValue('#puzzle-theme') === '', 'every theme after an unknown one');
    await phone.page.screenshot({ path: `${OUT}/puzzle-${lang}-phone.png`, fullPage: true });
    await checkPhoneLayout(phone.page, `puzzles ${lang}`);
    // Every menu link shows in full: none runs under the language menu.
    const menu = await phone.page.evaluate(() => {
      const nav = document.querySelector('header.top nav');
      const last = [...nav.querySelectorAll('a')].pop().getBoundingClientRect();
      return { fits: nav.scrollWidth <= nav.clientWidth, right: last.right, lang: document.getElementById('lang').getBoundingClientRect().left };
    });
    check(menu.fits && menu.right <= menu.lang, `puzzles ${lang}: the menu fits beside the language menu: ` + JSON.stringify(menu));
    await phone.context.close();
  }
  console.log('puzzles: a wrong answer, the hint, the solution and the next puzzle in 4 languages; a theme; a phone');
}

// The Learn page: the lessons listed, one worked through: a wrong move explained, the right one
// praised, the next step; the progress kept after a reload. Two languages, desktop and phone.
async function lessons(browser) {
  for (const [lang, viewport] of [['ca', { width: 1100, height: 800 }], ['en', { width: 390, height: 844 }]]) {
    const { context, page } = await newPage(browser, { locale: lang, viewport });
    await page.goto(BASE + '/learn');
    await page.waitForSelector('#lessons li');
    const data = await page.evaluate(async (lang) => (await fetch('/api/lessons?lang=' + lang)).json(), lang);
    const listed = await page.$$eval('#lessons li', (lis) => lis.map((li) => li.dataset.lesson));
    check(JSON.stringify(listed) === JSON.stringify(data.lessons.map((l) => l.id)), 'every lesson listed: ' + listed);
    await page.screenshot({ path: `${OUT}/learn-${lang}-${viewport.width}.png`, fullPage: true });
    const lesson = data.lessons[0];
    await page.click(`#lessons li[data-lesson="${lesson.id}"] a`);
    await page.waitForSelector('g.house.legal');
    check((await page.textContent('#lesson-text')).replace(/\u00a0/g, ' ') === lesson.steps[0].text.replace(/\u00a0/g, ' '), 'the step says what it asks');
    const step = lesson.steps[0];
    const wrong = Object.keys(step.answers).find((m) => !step.moves.includes(m));
    await page.click(`g.house[data-house="${wrong}"]`);
    await page.waitForSelector('#lesson-feedback.wrong');
    check((await page.textContent('#lesson-feedback')).length > 10, 'a wrong move is explained');
    check(await page.isHidden('#lesson-next'), 'no next step before the answer');
    await page.click(`g.house[data-house="${step.moves[0]}"]`);
    await page.waitForSelector('#lesson-feedback.right');
    await page.screenshot({ path: `${OUT}/learn-step-${lang}-${viewport.width}.png`, fullPage: true });
    await page.click('#lesson-next');
    await page.waitForFunction((text) => document.getElementById('lesson-text').textContent.replace(/\u00a0/g, ' ') === text.replace(/\u00a0/g, ' '),
      lesson.steps[1].text);
    if (viewport.width < 500) await checkPhoneLayout(page, `learn ${lang}`);
    await checkStructure(page, `learn ${lang}`);
    // Back to the list after a reload: the first step is counted as done.
    await page.goto(BASE + '/learn');
    await page.waitForSelector(`#lessons li[data-lesson="${lesson.id}"] .lesson-progress`);
    const shown = await page.textContent(`#lessons li[data-lesson="${lesson.id}"] .lesson-progress`);
    check(/\b1\b/.test(shown), 'the step done is remembered: ' + shown);
    check(!page.errors, 'no script errors');
    await context.close();
  }
  console.log('lessons: listed, a step answered wrong then right, the next step, progress kept; in two languages, on a phone');
}

// The page is served under a strict policy (so the tests above run under it), and refuses to be
// framed.
// Names that try to pass for something else: a template's placeholder ("{north}"), a
// right-to-left override, zero-width spaces. Each shows as the plain text it is, the override and
// the invisible characters gone, and the words around a name keep their order.
async function hostileNames(browser) {
  const a = await newPage(browser);
  await a.page.goto(BASE + '/');
  await a.page.fill('#player-name', '{north}\u202E\u200B');
  await a.page.selectOption('#friend-form select[name=side]', 'S');
  await a.page.click('#play-friend');
  await a.page.waitForSelector('#share-link');
  const link = await a.page.inputValue('#share-link');
  const b = await newPage(browser);
  await b.page.goto(link);
  await b.page.waitForSelector('#invited-name');
  const invite = await b.page.textContent('#invited h2');
  check(invite === '{north} invites you to play oware', 'the invitation as written: ' + JSON.stringify(invite));
  await b.page.fill('#invited-name', 'Bob');
  await b.page.click('#invited-play');
  await b.page.waitForFunction(() => document.body.dataset.ply === '0');
  await a.page.waitForSelector('#share-link', { state: 'hidden' });
  for (const page of [a.page, b.page]) {
    const heading = await page.textContent('h1.game-title');
    check(heading === '{north} vs Bob', 'the heading names both players as they are: ' + JSON.stringify(heading));
    check(await page.$$eval('h1.game-title bdi.player-name', (els) => els.length) === 2, 'each name isolated in the heading');
  }
  const top = await b.page.textContent('.player.top');
  check(top === 'South: {north}', 'South\'s chip: ' + JSON.stringify(top));
  await a.page.screenshot({ path: OUT + '/hostile-names.png' });
  await a.context.close();
  await b.context.close();
  console.log('hostile names: shown as written, without their invisible characters, in their place');
}

async function securityHeaders(browser) {
  const { context, page } = await newPage(browser);
  const res = await page.goto(BASE + '/');
  const csp = res.headers()['content-security-policy'] || '';
  check(csp.includes("script-src 'self'") && csp.includes("frame-ancestors 'none'"), 'a strict CSP: ' + csp);
  check(res.headers()['x-content-type-options'] === 'nosniff', 'nosniff');
  await context.close();
  console.log('security headers: a strict Content-Security-Policy on the page');
}

// The installable app: the manifest and its icons, the service worker (scope /, the app's files
// kept: offline, a reload shows the app and says that games need the connection), and a push the
// server sends shown as the game's notification.
async function installable(browser) {
  const { context, page } = await newPage(browser);
  await context.grantPermissions(['notifications'], { origin: BASE });
  await page.goto(BASE + '/');
  check(await page.getAttribute('link[rel=manifest]', 'href') === '/manifest.webmanifest', 'the manifest is linked');
  const scope = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.scope));
  check(scope === BASE + '/', 'the service worker covers the whole site: ' + scope);
  const icons = await page.evaluate(async () => {
    const manifest = await (await fetch('/manifest.webmanifest')).json();
    return Promise.all(manifest.icons.map((icon) => new Promise((resolve) => {
      const img = new Image();
      img.onload = () => resolve({ sizes: icon.sizes, got: img.naturalWidth + 'x' + img.naturalHeight });
      img.onerror = () => resolve({ sizes: icon.sizes, got: 'error' });
      img.src = icon.src;
    })));
  });
  check(icons.length === 3 && icons.every((i) => i.sizes === i.got), 'the icons load at their sizes: ' + JSON.stringify(icons));
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  check(await page.isHidden('#offline'), 'no offline note while online');
  // The install button only where the browser offers to install (headless Chromium never does: the
  // offer is made here as the browser makes it), and once used it goes.
  check(await page.isHidden('#install'), 'no install button unless the browser offers');
  await page.evaluate(() => {
    const offer = new Event('beforeinstallprompt', { cancelable: true });
    offer.prompt = () => { window.prompted = (window.prompted || 0) + 1; return Promise.resolve(); };
    window.dispatchEvent(offer);
    window.offerHeldBack = offer.defaultPrevented;
  });
  await page.waitForSelector('#install:not([hidden])');
  check(await page.textContent('#install') === 'Install the app', 'the install button');
  check(await page.evaluate(() => window.offerHeldBack), 'the browser\'s own prompt is held back');
  await page.locator('footer.settings').screenshot({ path: OUT + '/install-button.png' });
  await page.click('#install');
  check(await page.evaluate(() => window.prompted) === 1, 'the click shows the browser\'s prompt');
  check(await page.isHidden('#install'), 'the button goes once used');

  // A push as the server sends it, delivered to the worker: one notification per game, its title
  // and body, and the game's path to open.
  const cdp = await context.newCDPSession(page);
  const registrations = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
  await cdp.send('ServiceWorker.enable');
  for (let i = 0; i < 50 && !registrations.some((r) => r.scopeURL === BASE + '/' && !r.isDeleted); i++) await new Promise((r) => setTimeout(r, 100));
  const registration = registrations.find((r) => r.scopeURL === BASE + '/' && !r.isDeleted);
  check(registration, 'the worker is registered: ' + JSON.stringify(registrations));
  const game = '0123456789abcdef0123456789abcdef';
  const payload = { game, title: 'Léo moved', body: 'Your move', path: '/game/' + game };
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: BASE, registrationId: registration.registrationId, data: JSON.stringify(payload) });
  // Polled from here: waitForFunction would take the promise getNotifications returns for a yes.
  let shown = [];
  for (let i = 0; i < 50 && !shown.length; i++) {
    if (i) await new Promise((r) => setTimeout(r, 100));
    shown = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.getNotifications())
      .then((list) => list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, path: n.data && n.data.path }))));
  }
  check(shown.length === 1 && shown[0].title === payload.title && shown[0].body === payload.body && shown[0].tag === game &&
    shown[0].path === payload.path, 'the push is shown as the game\'s notification: ' + JSON.stringify(shown));
  await cdp.detach();

  // Offline: the kept copy of the app opens, and says that games need the connection.
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('#offline:not([hidden])');
  check((await page.textContent('#offline')).includes('games need the connection'), 'the offline note: ' + await page.textContent('#offline'));
  await page.waitForSelector('#app h1');
  await page.screenshot({ path: OUT + '/offline-home.png' });
  await page.goto(BASE + '/game/' + game);
  await page.waitForFunction(() => /games need the connection/.test(document.getElementById('status').textContent), null, { timeout: 10000 });
  await page.screenshot({ path: OUT + '/offline-game.png' });
  await context.setOffline(false);
  await page.goto(BASE + '/rules');
  await page.waitForSelector('#offline', { state: 'hidden' });
  await context.close();
  console.log('installable: manifest, icons, service worker, a push shown, the app offline');
}

// Being told of one's move: offered to the players of a friend game once it is under way; where
// the browser has no push service or the player says no, the page says so; with a subscription,
// "on" is kept per game and can be turned off.
async function pushButton(browser) {
  const a = await newPage(browser);
  await a.page.goto(BASE + '/');
  await a.page.selectOption('#friend-form select[name=side]', 'S');
  await a.page.click('#play-friend');
  const link = await a.page.inputValue('#share-link');
  const b = await newPage(browser, { locale: 'fr-FR' });
  await b.context.grantPermissions(['notifications'], { origin: BASE });
  // A push service of the test's own: headless Chromium has none, so North's subscription is
  // made here (a real P-256 key, on an address nothing answers).
  await b.context.addInitScript(() => {
    const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    PushManager.prototype.getSubscription = async () => null;
    PushManager.prototype.subscribe = async (options) => {
      window.subscribedWith = options.applicationServerKey.length;
      const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
      const p256dh = b64(await crypto.subtle.exportKey('raw', pair.publicKey));
      const auth = b64(crypto.getRandomValues(new Uint8Array(16)));
      return { toJSON: () => ({ endpoint: 'https://127.0.0.1:9/push/e2e', keys: { p256dh, auth } }) };
    };
  });
  await acceptInvite(b.page, link, 'Léo');
  await waitPly(a.page, 0);
  await waitPly(b.page, 0);
  check(await a.page.isHidden('#push'), 'not offered to South before the game is under way');
  await b.page.waitForSelector('#push-on');
  check((await b.page.textContent('#push-on')).includes('Me prévenir'), 'offered in French to North, whose friend moves first');
  check(await b.page.isHidden('#mail'), 'no e-mail in a game without days a move, though the server sends mail');
  await a.page.click('g.house.legal[data-house="F"]');
  await waitPly(a.page, 1);
  await a.page.waitForSelector('#push-on');
  check((await a.page.textContent('#push-on')) === 'Tell me when it is my move', 'offered to South after the first move');
  // South's browser asks nobody (headless): the permission is not granted, and the page says so.
  await a.page.click('#push-on');
  await a.page.waitForSelector('#push-note');
  const note = await a.page.textContent('#push-note');
  check(/blocked|cannot tell you/.test(note), 'South is told why not: ' + note);
  check(await a.page.evaluate(() => localStorage.getItem('oware.push.' + location.pathname.slice(6))) !== 'on', 'not marked on');
  await a.page.screenshot({ path: OUT + '/push-refused.png' });
  // North subscribes: the server takes the subscription (the seat proven by the token).
  await b.page.click('#push-on');
  await b.page.waitForSelector('#push-state');
  check(await b.page.evaluate(() => window.subscribedWith) === 65, 'the server\'s key, decoded, is a P-256 point');
  check((await b.page.textContent('#push-state')).includes('Notifications activées'), 'on, in French: ' + await b.page.textContent('#push-state'));
  await b.page.screenshot({ path: OUT + '/push-on-fr.png' });
  await b.page.reload();
  await waitPly(b.page, 1);
  await b.page.waitForSelector('#push-off');
  check((await toastAfter(b.page, () => b.page.click('#push-off'))).includes('désactivées'), 'turned off');
  await b.page.waitForSelector('#push-on');
  await a.context.close();
  await b.context.close();
  console.log('push button: offered once under way, refusal said, on and off');
}

// The mails the server sent, as scripts/lib/smtp-sink.py wrote them to E2E_MAIL_DIR, oldest first.
function mails() {
  const fs = require('fs');
  const dir = process.env.E2E_MAIL_DIR;
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
    .map((f) => JSON.parse(fs.readFileSync(dir + '/' + f, 'utf8')));
}

async function waitForMails(count) {
  for (let i = 0; i < 200; i++) {
    const got = mails();
    if (got.length >= count) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${mails().length} mails, not ${count}`);
}

// E-mail beside push in a correspondence game: North gives an address, opens the confirmation
// link the real mail carries, is told of South's move by mail while away, and stops it from the
// mail's unsubscribe link.
async function mailBox(browser) {
  const before = mails().length;
  const a = await newPage(browser, { locale: 'fr-FR' });
  await a.page.goto(BASE + '/');
  await a.page.fill('#player-name', 'Mamie <b>Lou</b>');
  await a.page.selectOption('#friend-form select[name=side]', 'S');
  await a.page.selectOption('#friend-form select[name=clock]', 'd3');
  await a.page.click('#play-friend');
  const link = await a.page.inputValue('#share-link');
  const b = await newPage(browser);
  await acceptInvite(b.page, link, 'Léo');
  await waitPly(b.page, 0);
  await b.page.waitForSelector('#mail-address');
  check((await b.page.textContent('#mail-on')) === 'E-mail me when it is my move', 'offered beside push');
  check(await b.page.isVisible('#push-on'), 'beside the push button');
  await (await b.page.$('#mail')).screenshot({ path: OUT + '/mail-offered.png' });
  await b.page.fill('#mail-address', 'leo@example.org');
  await b.page.click('#mail-on');
  await b.page.waitForSelector('#mail-state');
  check((await b.page.textContent('#mail-state')).includes('on its way to leo@example.org'), 'sent: ' + await b.page.textContent('#mail-state'));
  await b.page.screenshot({ path: OUT + '/mail-sent.png' });
  const confirmation = (await waitForMails(before + 1))[before];
  check(confirmation.to[0] === 'leo@example.org', 'to Léo');
  const confirmLink = confirmation.text.match(/http\S*\/email\/confirm#c=[0-9a-f]{32}/)[0];
  await b.page.goto(confirmLink);
  await b.page.waitForSelector('#email-result[data-done]');
  check((await b.page.textContent('#email-result')).startsWith('Your address is confirmed'), 'confirmed: ' + await b.page.textContent('#email-result'));
  check(await b.page.evaluate(() => location.hash) === '', 'the code leaves the address bar');
  await b.page.screenshot({ path: OUT + '/mail-confirmed.png' });
  await b.page.click('#email-game');
  await b.page.waitForSelector('#mail-state');
  check((await b.page.textContent('#mail-state')).startsWith('E-mail on'), 'on: ' + await b.page.textContent('#mail-state'));
  // Léo leaves; South moves: the mail tells him, and its unsubscribe page stops it.
  await b.page.goto(BASE + '/');
  await a.page.waitForSelector('g.house.legal');
  await a.page.click('g.house.legal[data-house="F"]');
  const told = (await waitForMails(before + 2))[before + 1];
  check(told.html.includes('Mamie &lt;b&gt;Lou&lt;/b&gt;') && !told.html.includes('<b>Lou'), 'the name escaped');
  const unsubscribe = told.text.match(/http\S*\/email\/unsubscribe#t=[0-9a-f]{32}/)[0];
  await b.page.goto(unsubscribe);
  await b.page.waitForSelector('#email-stop');
  await b.page.screenshot({ path: OUT + '/mail-unsubscribe.png' });
  await b.page.click('#email-stop');
  await b.page.waitForSelector('#email-result[data-done]');
  check((await b.page.textContent('#email-result')).startsWith('Done'), 'stopped');
  for (const x of [a, b]) { check(!x.page.errors, 'no script errors'); await x.context.close(); }
  console.log('mail: offered in correspondence games, confirmed by its link, told, unsubscribed');
}

(async () => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  let failed = false;
  // E2E_ONLY=name,name runs only those tests (while working on one part of the app).
  const only = (process.env.E2E_ONLY || '').split(',').filter(Boolean);
  for (const test of [securityHeaders, hostileNames, friendGame, invitations, correspondence, friendConveniences, gamePageEdges, gameAgainstComputer, clockGame, customClock, setUpPosition, analysisVariation, coach, reviewTeaches, analysisBoard, puzzles, lessons, colours, pages, installable, pushButton, mailBox]) {
    if (only.length && !only.includes(test.name)) continue;
    try {
      await test(browser);
    } catch (e) {
      failed = true;
      console.error(`FAILED ${test.name}: ${e.stack || e}`);
      for (const ctx of browser.contexts()) {
        for (const [i, p] of ctx.pages().entries()) {
          await p.screenshot({ path: `${OUT}/failure-${test.name}-${i}.png` }).catch(() => {});
        }
        await ctx.close().catch(() => {});
      }
    }
  }
  await browser.close();
  if (cspViolations.length) {
    failed = true;
    console.error(`FAILED: ${cspViolations.length} Content Security Policy violations`);
  }
  if (pageErrors.length) {
    failed = true;
    console.error(`FAILED: ${pageErrors.length} script errors or app files not served`);
  }
  if (failed) process.exit(1);
  console.log('web e2e: all passed');
})();
