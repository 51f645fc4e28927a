// E-mail for a correspondence game: a seated player gives an address, the server sends it one
// confirmation mail, and once its link is opened (pages/email.js) the address is told when it is
// the player's move. The server keeps the truth; the marks here only pick what the page offers.
import { api } from './api.js';
import { saved } from './dom.js';

const key = (id) => 'oware.mail.' + id;

// What this browser knows of the game `id`'s mail: null, or { state: 'sent' | 'on', email }.
export function mailState(id) {
  try { return JSON.parse(saved.get(key(id)) || 'null'); } catch (e) { return null; }
}

function mark(id, state, email) {
  saved.set(key(id), state ? JSON.stringify({ state, email }) : '');
}

// Asks the server to send `email` its confirmation mail for the seat `token` holds (the seat
// cookie proves it otherwise), in `lang`. Resolves to 'sent', or 'on' when the address was
// confirmed already; the server's refusals are thrown, as `api` throws them.
export async function askForMail(id, token, email, lang) {
  const answer = await api('POST', '/api/games/' + id + '/email', Object.assign({ email, lang }, token ? { token } : {}));
  const state = answer.status === 'confirmed' ? 'on' : 'sent';
  mark(id, state, email);
  return state;
}

// Stops every mail of the seat's player for the game.
export async function stopMail(id, token) {
  await api('DELETE', '/api/games/' + id + '/email', token ? { token } : undefined);
  mark(id, null);
}

// The confirmation link's code, sent back: resolves to the game's id (the address is told from
// now on), which this browser then marks on.
export async function confirmMail(code) {
  const answer = await api('POST', '/api/email/confirm', { code });
  const before = mailState(answer.game);
  mark(answer.game, 'on', before && before.email);
  return answer.game;
}

// The unsubscribe link's token, sent back: that address gets no more mail of its game.
export async function unsubscribeMail(token) {
  await api('POST', '/api/email/unsubscribe?t=' + encodeURIComponent(token), {});
}
