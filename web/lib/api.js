// The server's API: JSON requests and the errors they are refused with, the WebSocket address of a
// path, and where friends reach this server.
import { t, has } from './i18n.js';

// An error the server refused a request with: its code picks the text in the page's language;
// the server's own (English) sentence is kept for what has no translation.
export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export function errorText(e) {
  if (e && e.code && has('err.' + e.code)) return t('err.' + e.code);
  if (e instanceof TypeError) return t('err.network');
  return (e && e.message) || String(e);
}

export async function api(method, path, body) {
  let res;
  res = await fetch(path, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError((data.error && data.error.code) || 'http-' + res.status, (data.error && data.error.message) || res.statusText, res.status);
  return data;
}

// The WebSocket address of `path` on the server this page came from, secure when the page is.
export function socketUrl(path) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return proto + '//' + location.host + path;
}

// Where friends reach this server: the public address it was given (oware serve --public-url),
// else the one this page was opened at. Asked once per page.
let serverInfo = null;
export function publicOrigin() {
  return (serverInfo && serverInfo.public_url) || location.origin;
}
// Whether the server sends mail (oware serve --smtp), as /api/server said.
export function serverHasMail() {
  return !!(serverInfo && serverInfo.mail);
}
export async function loadServerInfo() {
  try { serverInfo = await api('GET', '/api/server'); } catch (e) { serverInfo = {}; }
}

// Whether the page was opened on an address only this computer can reach.
export function localOnly(hostname) {
  return /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|::1|0\.0\.0\.0)$/.test(hostname);
}
