// The service worker (served at /sw.js, for the whole site): it keeps a copy of the app's files so
// that the installed app opens without a connection (and says that games need one), and it shows
// the game notifications the server pushes.
//
// The server writes two constants before this file (crates/oware-server/src/routes/app_shell.rs):
// VERSION, a hash of every file of the app, and SHELL, the paths to keep. A new version of the app
// is a new worker with a new cache: it takes over at once and drops the old copy, so no page ever
// mixes files of two versions after its next load.
/* global VERSION, SHELL */
'use strict';

const CACHE = 'oware-' + VERSION;

self.addEventListener('install', (event) => {
  // `reload`: the copy comes from the server, not from the browser's HTTP cache, which may hold
  // files of the version before.
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(SHELL.map((path) => new Request(path, { cache: 'reload' }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith('oware-') && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

// The network first, always: a player online gets the server's files as they are now. The kept
// copy answers only when the network fails; a page address (a game's, say) gets the app's page,
// which draws the page its path names.
async function networkFirst(request, fallback) {
  try {
    return await fetch(request);
  } catch (e) {
    const kept = await caches.match(fallback || request, { cacheName: CACHE, ignoreSearch: true });
    if (kept) return kept;
    throw e;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  // The API (the WebSocket included) is live: the games, the moves and the seats are never
  // answered from a copy.
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') event.respondWith(networkFirst(request, '/'));
  else if (url.pathname.startsWith('/static/') || url.pathname === '/manifest.webmanifest') event.respondWith(networkFirst(request));
});

// A push from the server: {game, title, body, path}, in the language the player subscribed in.
// One notification per game: a newer one replaces the one before, and rings again.
self.addEventListener('push', (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  const path = typeof data.path === 'string' ? data.path : '/';
  const options = { body: data.body || '', data: { path }, icon: '/static/icons/icon-192.png' };
  if (data.game) Object.assign(options, { tag: String(data.game), renotify: true });
  event.waitUntil(self.registration.showNotification(data.title || 'Oware', options));
});

// A click on a notification: the game's page, in the tab that shows it if there is one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.path) || '/';
  // Only an address of this site (a path such as `//elsewhere` would name another one).
  let target = null;
  try { target = new URL(path, self.location.origin); } catch (e) { /* not an address */ }
  if (!target || target.origin !== self.location.origin) target = new URL('/', self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((tabs) => {
    const open = tabs.find((tab) => new URL(tab.url).pathname === target.pathname);
    if (open && 'focus' in open) return open.focus();
    return self.clients.openWindow(target.href);
  }));
});
