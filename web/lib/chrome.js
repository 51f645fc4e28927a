// What every page has around it: the header's language menu and the footer's colours and sounds
// settings, in the page's language, and the link to the page shown marked as current; and what
// makes the app installable: the service worker, the offline note and the install button.
import { h, fill, saved } from './dom.js';
import { t, getLanguage, setLanguage } from './i18n.js';
import { sound } from './sound.js';

// The colour scheme: the system's, unless the player picked light or dark (remembered).
export function applyTheme() {
  const theme = saved.get('oware.theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

export function translateChrome() {
  document.documentElement.lang = getLanguage();
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll('[data-t-label]')) el.setAttribute('aria-label', t(el.dataset.tLabel));
  document.getElementById('lang').value = getLanguage();
  const theme = document.getElementById('theme');
  fill(theme, ['system', 'light', 'dark'].map((v) => h('option', { value: v }, t('theme.' + v))));
  theme.value = saved.get('oware.theme') || 'system';
  document.getElementById('sound').checked = sound.on();
  const path = location.pathname;
  for (const a of document.querySelectorAll('nav a')) {
    const here = a.getAttribute('href') === path || (path.startsWith('/game/') && a.getAttribute('href') === '/');
    if (here) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
}

// The settings' menus act at once, and are remembered.
export function listenToSettings() {
  document.getElementById('lang').addEventListener('change', (e) => {
    setLanguage(e.target.value);
    // Simplest faithful way to redraw every text: load the page again (games resume by token).
    location.reload();
  });
  document.getElementById('theme').addEventListener('change', (e) => {
    saved.set('oware.theme', e.target.value);
    applyTheme();
  });
  document.getElementById('sound').addEventListener('change', (e) => {
    saved.set('oware.sound', e.target.checked ? 'on' : 'off');
  });
}

// The service worker (sw.js: the offline copy of the app, and game notifications), the note that
// says the connection is down, and the footer's install button, shown only where the browser
// offers to install the app (its own prompt is held back: the player asks, or is never asked).
export function startAppShell() {
  if ('serviceWorker' in navigator) {
    // After the page's own files: the worker's copy of the app then competes with nothing.
    const register = () => navigator.serviceWorker.register('/sw.js').catch(() => { /* the app works without it */ });
    if (document.readyState === 'complete') register(); else window.addEventListener('load', register);
  }
  const note = document.getElementById('offline');
  const showConnection = () => { note.hidden = navigator.onLine !== false; };
  window.addEventListener('online', showConnection);
  window.addEventListener('offline', showConnection);
  showConnection();
  const install = document.getElementById('install');
  let offer = null;
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    offer = e;
    install.hidden = false;
  });
  install.addEventListener('click', () => {
    if (!offer) return;
    // A prompt can be shown once: the button goes with it, and comes back if the browser offers again.
    offer.prompt();
    offer = null;
    install.hidden = true;
  });
  window.addEventListener('appinstalled', () => {
    offer = null;
    install.hidden = true;
  });
}
