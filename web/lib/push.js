// Web Push for a game: a seated player asks to be told when it is their move while no page shows
// the game. The browser's push service carries the server's messages to the service worker
// (/sw.js), which shows them; the server sends them in the language the player subscribed in.
import { api } from './api.js';
import { saved } from './dom.js';

const key = (id) => 'oware.push.' + id;

// Whether this browser was told it is on for the game `id` (the server keeps the truth; the mark
// only picks what the page offers).
export function pushIsOn(id) {
  return saved.get(key(id)) === 'on';
}

// The server's public key, base64url as the API gives it, as the bytes `subscribe` takes.
export function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - base64.length % 4) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function sameKey(a, b) {
  if (!a || a.byteLength !== b.length) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((x, i) => x === b[i]);
}

// The service worker, or null when none becomes ready soon (registration refused or failed).
function readyWorker() {
  const timeout = new Promise((resolve) => setTimeout(() => resolve(null), 10000));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

// Asks the browser for notifications and the push service for a subscription, and gives it to
// the server for the seat `token` holds (the seat cookie proves it otherwise). Resolves to 'on',
// or why not: 'denied' (the player or the browser's settings said no) or 'unsupported' (no
// service worker or push service here). The server's refusals are thrown, as `api` throws them.
export async function subscribe(id, token, lang) {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const worker = await readyWorker();
  if (!worker || !worker.pushManager) return 'unsupported';
  const serverKey = keyBytes((await api('GET', '/api/push/key')).key);
  let subscription;
  try {
    subscription = await worker.pushManager.getSubscription();
    // A subscription made for another key (the server's data was replaced) would be refused by
    // the push service: a new one replaces it.
    if (subscription && !sameKey(subscription.options.applicationServerKey, serverKey)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    if (!subscription) subscription = await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
  } catch (e) {
    // No push service (a browser built without one), or permission withdrawn meanwhile.
    return e && e.name === 'NotAllowedError' ? 'denied' : 'unsupported';
  }
  await api('POST', '/api/games/' + id + '/push', Object.assign({ subscription: subscription.toJSON(), lang }, token ? { token } : {}));
  saved.set(key(id), 'on');
  return 'on';
}

// Tells the server to stop telling this seat's player of the game, in every browser.
export async function unsubscribe(id, token) {
  await api('DELETE', '/api/games/' + id + '/push', token ? { token } : undefined);
  saved.set(key(id), '');
}
