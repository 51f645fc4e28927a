// A game's page: the board and the players, the clocks, the controls (takeback, offers, resign,
// rematch), quick messages between friends, the friend's invitation and its QR code, the coach,
// and looking back through the moves. The server referees everything: the page sends requests
// and moves, and draws the states the game's WebSocket sends back.
import { app, h, fill, toast, saved, attention, setTitle, withCode } from '../lib/dom.js';
import { t, tNodes, sideName, nameNode, getLanguage } from '../lib/i18n.js';
import { api, errorText, socketUrl, publicOrigin, loadServerInfo, localOnly, serverHasMail } from '../lib/api.js';
import { Board, parsePosition, LETTERS } from '../lib/board.js';
import * as Coach from '../lib/coach.js';
import { qrcode } from '../lib/qrcode.js';
import { sound } from '../lib/sound.js';
import { myGames, playerName, nameInput } from '../lib/players.js';
import { moveLabel, notation, endText } from '../lib/notation.js';
import { copy } from '../lib/widgets.js';
import { pushIsOn, subscribe, unsubscribe } from '../lib/push.js';
import { mailState, askForMail, stopMail } from '../lib/mail.js';
import { notFoundPage } from './not-found.js';

// Time left as a clock shows it: minutes and seconds, or hours or days when there are that many
// (correspondence games).
function clockText(ms) {
  const secs = Math.ceil(ms / 1000);
  if (secs >= 86400) return t('clock.dh', { d: Math.floor(secs / 86400), h: Math.floor(secs % 86400 / 3600) });
  if (secs >= 3600) return t('clock.hm', { h: Math.floor(secs / 3600), m: Math.floor(secs % 3600 / 60) });
  return Math.floor(secs / 60) + ':' + String(secs % 60).padStart(2, '0');
}

// The QR code of `text` as an SVG image (dark modules on white, with the quiet zone the readers
// need), drawn from the module matrix of the vendored qrcode-generator (lib/qrcode.js).
function qrCode(text) {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  let path = '';
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) path += `M${c + 4} ${r + 4}h1v1h-1z`;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${n + 8} ${n + 8}`);
  svg.setAttribute('class', 'qr');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('share.qr'));
  svg.innerHTML = `<rect width="${n + 8}" height="${n + 8}" fill="#fff"/><path d="${path}" fill="#000"/>`;
  return svg;
}

// Quick messages between friends: fixed words sent as codes, each shown in the reader's
// language (no free text, nothing to moderate).
const SAYINGS = ['good-luck', 'your-move', 'well-played', 'thank-you', 'good-game'];

// The buttons that send them (with `send`, the game's socket) and the line that shows the
// friend's.
function quickMessages(send) {
  const said = h('p', { class: 'said', id: 'said', role: 'status', 'aria-live': 'polite', hidden: true });
  const quick = h('div', { class: 'row quick', id: 'quick', role: 'group', 'aria-label': t('say.label'), hidden: true },
    SAYINGS.map((code) => h('button', { class: 'secondary say', id: 'say-' + code, onclick: () => send({ type: 'say', what: code }) }, t('say.' + code))));
  // A message said in the game `v`: its sender is told it went, the other player reads it.
  function hear(msg, you, v) {
    const text = t('say.' + msg.what);
    if (msg.by === you) toast(t('say.sent', { text }));
    else {
      const name = v && nameOf(msg.by, v);
      fill(said, tNodes('say.from', { name: name ? nameNode(name) : sideName(msg.by), text }));
      said.hidden = false;
      clearTimeout(said.timer);
      said.timer = setTimeout(() => { said.hidden = true; }, 15000);
      sound.notify();
    }
  }
  return { said, quick, hear };
}

// The game's buttons: back to the game while looking back, a takeback against the computer, the
// rematch and a new game once it is over, offers between friends, calling off and resigning.
// `send` sends a message on the game's socket.
function gameButtons(send, lookAt, openRematch) {
  const live = h('button', { class: 'secondary', id: 'live', hidden: true, onclick: () => lookAt(null) }, t('backToGame') + ' ▶|');
  const undo = h('button', { class: 'secondary', id: 'undo', hidden: true, onclick: () => send({ type: 'undo' }) }, t('undo'));
  const rematch = h('button', { id: 'rematch', hidden: true, onclick: () => openRematch() }, t('rematch'));
  const newGame = h('a', { class: 'button secondary', id: 'new-game', href: '/', hidden: true }, t('newGame'));
  // Resigning takes two presses: the first turns the button into "Confirm", for a few seconds.
  const unconfirm = () => {
    clearTimeout(resign.timer);
    delete resign.dataset.confirm;
    resign.textContent = t('resign');
  };
  const resign = h('button', { class: 'secondary', id: 'resign', hidden: true, onclick: () => {
    if (resign.dataset.confirm) {
      unconfirm();
      send({ type: 'resign' });
      return;
    }
    resign.dataset.confirm = '1';
    resign.textContent = t('resign.confirm');
    resign.timer = setTimeout(unconfirm, 4000);
  } }, t('resign'));
  // Calling the game off before one's first move: it ends with no result.
  const abort = h('button', { class: 'secondary', id: 'abort', hidden: true, onclick: () => send({ type: 'abort' }) }, t('abort'));
  const offerDraw = h('button', { class: 'secondary', id: 'offer-draw', hidden: true, onclick: () => send({ type: 'offer', what: 'draw' }) }, t('offer.draw'));
  const offerTakeback = h('button', { class: 'secondary', id: 'offer-takeback', hidden: true, onclick: () => send({ type: 'offer', what: 'takeback' }) }, t('offer.takeback'));
  return { live, undo, rematch, newGame, resign, abort, offerDraw, offerTakeback };
}

// Whether `you` has played a move of the game `v` yet.
function hasMoved(v, you) {
  return v.moves.split('').some((m) => (you === 'S') === 'ABCDEF'.includes(m));
}

// The buttons a state shows to `you` (null: a watcher); `browsing` while looking back.
function showButtons(b, v, you, browsing) {
  const playing = you && !v.end && !waitingForFriend(v);
  const friends = v.mode === 'friend';
  b.undo.hidden = !(v.mode === 'computer' && you && !v.end);
  b.undo.disabled = !!v.thinking || !hasMoved(v, you);
  b.resign.hidden = !playing;
  b.abort.hidden = !(you && !v.end && !hasMoved(v, you));
  b.offerDraw.hidden = !(playing && friends);
  b.offerTakeback.hidden = !(playing && friends);
  b.offerTakeback.disabled = !hasMoved(v, you);
  b.rematch.hidden = !(v.end && you) || (!!v.rematch && v.mode === 'friend');
  b.rematch.textContent = t('rematch');
  b.newGame.hidden = !(v.end && you);
  b.live.hidden = !browsing;
}

// The offer box (see `offerBox` in the page): what is offered to or by `you` in the game `v`, and
// the rematch it led to.
function drawOffer(offerBox, v, you, send, openRematch) {
  let parts = null;
  if (v.rematch && !you) {
    parts = [h('span', {}, t('watchRematch')), h('a', { class: 'button', id: 'watch-rematch', href: '/game/' + v.rematch }, t('openWatchRematch'))];
  } else if (v.rematch && you && v.mode === 'friend') {
    parts = [h('span', {}, t('offer.rematchReady')), h('button', { id: 'open-rematch', onclick: openRematch }, t('offer.openRematch'))];
  } else if (v.offer && you && !v.end) {
    const what = v.offer.what;
    if (v.offer.by === you) {
      parts = [h('span', {}, t('offer.sent.' + what)),
        h('button', { class: 'secondary', id: 'withdraw', onclick: () => send({ type: 'answer', accept: false }) }, t('offer.withdraw'))];
    } else {
      parts = [h('span', {}, t('offer.received.' + what)),
        h('button', { id: 'accept', onclick: () => send({ type: 'answer', accept: true }) }, t('offer.accept')),
        h('button', { class: 'secondary', id: 'decline', onclick: () => send({ type: 'answer', accept: false }) }, t('offer.decline'))];
    }
  }
  offerBox.hidden = !parts;
  if (parts && offerBox.dataset.key !== JSON.stringify([v.offer, v.rematch])) fill(offerBox, parts);
  offerBox.dataset.key = JSON.stringify([v.offer, v.rematch]);
}

// The players' clocks on the page (the `.clock` of each player's chip), counting down the running
// one; `isOffline()` says whether the connection is down, when the clocks stand still.
function clockDisplay(isOffline) {
  let clockState = null;
  // The time left as the page shows it now: the running clock counts down from the moment the
  // state arrived, and stands still where it was once the connection is lost (never back to the
  // last value the server sent, and never given time: the server's answer on reconnecting says
  // the time really left).
  function left(side) {
    const i = side === 'S' ? 0 : 1;
    let ms = clockState.remaining_ms[i];
    if (clockState.running === side && !clockState.frozen) ms -= performance.now() - clockState.at;
    return Math.max(0, ms);
  }
  function freeze() {
    if (!clockState || clockState.frozen) return;
    if (clockState.running) {
      const i = clockState.running === 'S' ? 0 : 1;
      clockState.remaining_ms[i] = left(clockState.running);
    }
    clockState.frozen = true;
  }
  function tickClocks() {
    if (!clockState) return;
    if (isOffline()) freeze();
    for (const el of app.querySelectorAll('.clock')) {
      const side = el.dataset.side;
      const ms = left(side);
      el.textContent = clockText(ms);
      el.classList.toggle('running', clockState.running === side);
      el.classList.toggle('low', ms < 30000);
    }
  }
  setInterval(tickClocks, 200);
  return {
    // The server sends the time left when it sent the state. A redraw while the connection is
    // lost redraws the last state the server sent: the clocks keep what they showed.
    show(clock) {
      if (isOffline() && clockState && clockState.frozen) return tickClocks();
      clockState = clock ? { ...clock, remaining_ms: [...clock.remaining_ms], at: performance.now(), frozen: false } : null;
      tickClocks();
    },
    // The connection is lost.
    stop: freeze,
  };
}

// A friend game whose second seat is still free.
function waitingForFriend(v) {
  return v.mode === 'friend' && !(v.seated[0] && v.seated[1]);
}

// The name the player on `side` gave, if any.
function nameOf(side, v) {
  return (v.names && v.names[side === 'S' ? 0 : 1]) || null;
}

// Who sits on `side`, as the player `you` (null: a watcher) reads it.
function seatName(side, v, you) {
  if (v.computer === side) return t('computer', { n: v.level });
  const name = nameOf(side, v);
  if (you === side) return name ? tNodes('youNamed', { name: nameNode(name) }) : t('you');
  // A player who gave no name: a friend, or the person playing the computer.
  if (!v.seated[side === 'S' ? 0 : 1]) return t('waiting');
  return name ? nameNode(name) : t(v.mode === 'computer' ? 'player' : 'friend');
}

// A player's chip above or below the board: the side, who sits there, whose turn, the clock.
function playerChip(el, side, v, you) {
  const toMove = !v.end && !waitingForFriend(v) && v.to_move === side;
  el.classList.toggle('to-move', toMove);
  el.dataset.side = side;
  fill(el, h('span', { class: 'name' }, tNodes('labelled', { label: sideName(side), value: seatName(side, v, you) })),
    toMove ? h('span', { class: 'turn-dot', 'aria-hidden': 'true' }) : null,
    v.clock ? h('span', { class: 'clock', 'data-side': side }) : null);
}

// What the status line says while a move is shown being sown.
function animatingText(move, you) {
  const side = 'ABCDEF'.includes(move) ? 'S' : 'N';
  if (side === you) return t('youPlay', { move });
  return t('sidePlays', { side: sideName(side), move });
}

// Why a visitor only watches, and how to get in; for the players of a friend game not yet
// started, a way to free the seat of someone who was not the friend they invited.
function drawSeatNote(seatNote, v, you, watchReason, reinvite) {
  let parts = null;
  const friends = v.mode === 'friend';
  if (!you && friends && !v.end) {
    if (watchReason === 'freed') parts = [h('p', {}, t('seat.freed'))];
    else if (v.seated[0] && v.seated[1]) {
      if (watchReason === 'taken') {
        const named = (side, otherwise) => (nameOf(side, v) ? nameNode(nameOf(side, v)) : t(otherwise));
        parts = [h('p', {}, tNodes('seat.taken', { south: named('S', 'south'), north: named('N', 'north') })),
          v.moves.length ? null : h('p', { class: 'hint' }, t('seat.takenHelp'))];
      }
    } else {
      // A seat is free, but this visitor came without the invitation (or with an old one).
      const host = nameOf(v.seated[0] ? 'S' : 'N', v);
      parts = [h('p', {}, tNodes('seat.needLink', { name: host ? nameNode(host) : t('friend') })),
        watchReason === 'taken' ? h('p', { class: 'hint' }, t('seat.takenHelp')) : null];
    }
  } else if (you && you === v.host && !v.end && v.seated[0] && v.seated[1] && !v.moves.length) {
    parts = [h('span', {}, t('seat.notYourFriend') + ' '),
      h('button', { class: 'secondary', id: 'free-seat', onclick: () => reinvite('seat.freeDone') }, t('seat.free'))];
  }
  seatNote.hidden = !parts;
  const key = JSON.stringify([you, watchReason, v.seated, v.names, !!v.moves.length]);
  if (parts && seatNote.dataset.key !== key) fill(seatNote, parts);
  seatNote.dataset.key = key;
}

// The invitation `url` to pass on: the link, copy, the phone's share sheet, a QR code, a warning
// when the address only works on this computer, and a new link (`reinvite`).
function shareParts(url, reinvite) {
  const shareSheet = navigator.share ? h('button', { class: 'secondary', id: 'share-sheet', onclick: () => {
    navigator.share({ title: 'Oware', text: t('share.text'), url }).catch(() => {});
  } }, t('share.send')) : null;
  return [h('p', {}, t('share')), h('div', { class: 'row' },
    h('input', { value: url, readonly: true, id: 'share-link', 'aria-label': t('share'), onfocus: (e) => e.target.select() }),
    h('button', { onclick: () => copy(url), id: 'copy-link' }, t('copyLink')), shareSheet),
  localOnly(new URL(url).hostname) ? h('p', { class: 'warning', id: 'local-warning' }, ...withCode(t('share.localOnly'), '--public-url')) : null,
  h('div', { class: 'qr-wrap' }, qrCode(url), h('p', { class: 'hint' }, t('share.qrHint'))),
  h('div', { class: 'row' }, h('button', { class: 'secondary', id: 'new-link', onclick: () => reinvite('share.newLinkDone') }, t('share.newLink')))];
}

// The game `v` opened on the analysis board, which reads it (and `key`'s `value`: the ply to show,
// or whose mistakes to review) from the session's storage.
function openInAnalysis(v, key, value) {
  sessionStorage.setItem('oware.analyse', v.start + ' ' + v.moves);
  sessionStorage.setItem('oware.analyseRules', v.rules);
  sessionStorage.setItem(key, value);
  location.href = '/analysis';
}

// The invitation's card: who invites, the visitor's name, and a button to take the seat; nothing
// when the seats are both taken.
async function askName(id, status) {
  let inviter = null;
  try {
    const v = await api('GET', '/api/games/' + id);
    // Both seats taken already: no name to ask; the join below says at once that the visitor
    // watches.
    if (v.seated && v.seated.every(Boolean)) return;
    inviter = v.names && v.names[v.host === 'N' ? 1 : 0];
  } catch (e) { /* the join below says what is wrong */ }
  const input = nameInput('invited-name');
  let submitted;
  const done = new Promise((resolve) => { submitted = resolve; });
  const form = h('form', { class: 'card invited', id: 'invited', onsubmit: (e) => {
    e.preventDefault();
    playerName.set(input.value);
    submitted();
  } },
  h('h2', {}, inviter ? tNodes('invited.title', { name: nameNode(inviter) }) : t('invited.anon')),
  h('label', { for: 'invited-name' }, t('name.label') + ' '), input,
  h('p', { class: 'hint' }, t('name.hint')),
  h('button', { type: 'submit', id: 'invited-play' }, t('invited.join')));
  status.replaceWith(form);
  input.focus();
  await done;
  form.replaceWith(status);
}

export function gamePage(id) {
  const tokenKey = 'oware.token.' + id;
  // A private link (#t=TOKEN) lets a player continue on another device. The token rides in the
  // fragment, which browsers never send to the server (nor to a proxy's logs); it is exchanged for
  // the seat cookie by the join below, and dropped from the address bar and the history at once.
  // Links of the older form (?t=) still work, and are dropped the same way.
  const linked = new URLSearchParams(location.hash.slice(1)).get('t') ||
    new URLSearchParams(location.search).get('t');
  if (linked) {
    saved.set(tokenKey, linked);
    history.replaceState(null, '', '/game/' + id);
  }
  // A friend's invitation (#i=CODE): only a join that brings the code takes the free seat; the
  // game's plain address lets people watch. The code leaves the address bar once used, so a
  // reload or a copied address does not carry it on.
  const invite = new URLSearchParams(location.hash.slice(1)).get('i');
  // The code this player passes on while the friend's seat is free (from the server).
  let inviteCode = null;
  // Why this visitor watches: 'taken' (came with an invitation), 'link' (came without one),
  // 'freed' (a player whose seat the other freed before the first move).
  let watchReason = null;
  const freedKey = 'oware.freed.' + id;
  let token = saved.get(tokenKey);
  let you = null;
  let view = null;
  let shown = null; // the state the board shows (animations run from it to the newest)
  let animating = null; // the move being animated, while it is
  let pending = false; // a move of ours sent and not yet answered
  let browse = null; // the ply shown while looking back through the moves; null: the game now
  let history_ = null; // { moves, positions } of the game, fetched for looking back
  let queue = Promise.resolve();
  let socket = null;
  let retry = 500;

  setTitle(t('title.game'));
  const title = h('h1', { class: 'game-title' }, t('title.game'));
  const topPlayer = h('div', { class: 'player top' });
  const bottomPlayer = h('div', { class: 'player bottom' });
  const boardWrap = h('div', { class: 'board-wrap' });
  const board = new Board(boardWrap, { onPick: pick, onSow: () => sound.sow() });
  const status = h('div', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' }, t('connecting'));
  const seatNote = h('div', { class: 'seat-note', id: 'seat-note', hidden: true });
  const sayings = quickMessages(send);
  const share = h('div', { class: 'share', id: 'share', hidden: true });
  const moves = h('div', { class: 'moves', id: 'moves', onclick: (e) => {
    const el = e.target.closest && e.target.closest('[data-ply]');
    const p = el && el.dataset.ply;
    if (p) lookAt(Number(p));
  } });
  const buttons = gameButtons(send, lookAt, openRematch);
  // Turning the board round: the player (or watcher) picks which side sits at the bottom.
  let flipped = false;
  const flip = h('button', { class: 'secondary', id: 'flip', onclick: () => {
    flipped = !flipped;
    board.setBottom(bottomSide());
    redraw();
  } }, t('flip'));
  // While the connection is down: nothing can be played, the clocks stand still, the page says so
  // and reconnects by itself.
  let offline = false;
  // The rematch the game already led to when this page opened (a watcher is taken only to one
  // that starts while watching).
  let rematchAtStart;
  // An offer between friends (a draw, a takeback): the one it is made to answers it, the one who
  // made it may withdraw it. A rematch the friend started is offered here too.
  const offerBox = h('div', { class: 'offer', id: 'offer', hidden: true, role: 'alert' });
  const download = h('a', { class: 'button secondary', id: 'download', href: '/api/games/' + id + '/record' }, t('download'));
  const copyPos = h('button', { class: 'secondary', id: 'copy-position', onclick: () => view && copy(shownPosition()) }, t('copyPos'));
  const analyse = h('button', { class: 'secondary', id: 'analyse', onclick: () => {
    if (view) openInAnalysis(view, 'oware.analysePly', browse === null ? '' : String(browse));
  } }, t('analyseThis'));
  const hint = h('p', { class: 'hint keys-hint' });
  // The coach: when on, on the player's turn, the best move and why, the threats on the board
  // (houses at risk are marked), and after the game a review of the player's mistakes.
  let coachOn = saved.get('oware.coach') === 'on';
  let coachRisk = null;
  const coachCheck = h('input', { type: 'checkbox', id: 'coach-toggle', onchange: (e) => {
    coachOn = e.target.checked;
    saved.set('oware.coach', coachOn ? 'on' : 'off');
    delete coachBox.dataset.for;
    coachRisk = null;
    redraw();
  } });
  coachCheck.checked = coachOn;
  const coachToggle = h('label', { class: 'coach-toggle', hidden: true }, coachCheck, ' ', Coach.text('coach.toggle'));
  const coachBox = h('div', { class: 'coach', id: 'coach', hidden: true, 'aria-live': 'polite' });
  const review = h('button', { class: 'secondary', id: 'coach-review-game', hidden: true, onclick: () => {
    if (view) openInAnalysis(view, 'oware.review', you || '');
  } }, Coach.text('coach.review'));
  // Being told when it is one's move while no page shows the game (see lib/push.js): offered to a
  // seated player of a friend game once it is under way, never asked for unprompted.
  const pushBox = h('div', { class: 'push-box', id: 'push', hidden: true });
  let pushNote = null; // why the last try did not turn it on: 'denied' or 'unsupported'
  let pushBusy = false;
  async function pushStart() {
    pushBusy = true;
    if (view) drawPush(view);
    try {
      const result = await subscribe(id, token, getLanguage());
      if (result !== 'on') pushNote = result;
    } catch (e) { toast(errorText(e)); }
    pushBusy = false;
    if (view) drawPush(view);
  }
  async function pushStop() {
    try {
      await unsubscribe(id, token);
      toast(t('push.offDone'));
    } catch (e) { toast(errorText(e)); }
    if (view) drawPush(view);
  }
  // Whether the player may ask to be told of the game's moves: seated in a friend game under way.
  function canBeTold(v) {
    const underWay = v.moves.length > 0 || v.to_move !== you;
    return !!you && v.mode === 'friend' && !v.end && !waitingForFriend(v) && underWay;
  }
  function drawPush(v) {
    const open = canBeTold(v);
    pushBox.hidden = !open;
    const on = pushIsOn(id);
    const key = JSON.stringify([open, on, pushNote, pushBusy]);
    if (!open || pushBox.dataset.key === key) return;
    pushBox.dataset.key = key;
    if (on) fill(pushBox, h('span', { id: 'push-state' }, t('push.on')), h('button', { class: 'secondary', id: 'push-off', onclick: pushStop }, t('push.off')));
    else if (pushNote) fill(pushBox, h('p', { class: 'hint', id: 'push-note' }, t('push.' + pushNote)));
    else fill(pushBox, h('button', { class: 'secondary', id: 'push-on', disabled: pushBusy, onclick: pushStart }, t('push.ask')));
  }
  // E-mail for those who will not use push (see lib/mail.js): offered beside it in correspondence
  // games, when the server sends mail.
  const mailBox = h('div', { class: 'push-box mail-box', id: 'mail', hidden: true });
  let mailBusy = false;
  async function mailStart(input) {
    const email = input.value.trim();
    if (!email || !input.checkValidity()) {
      toast(t('err.bad-email'));
      return;
    }
    mailBusy = true;
    if (view) drawMail(view);
    try {
      await askForMail(id, token, email, getLanguage());
    } catch (e) { toast(errorText(e)); }
    mailBusy = false;
    if (view) drawMail(view);
  }
  async function mailStop() {
    try {
      await stopMail(id, token);
      toast(t('mail.offDone'));
    } catch (e) { toast(errorText(e)); }
    if (view) drawMail(view);
  }
  function drawMail(v) {
    const open = canBeTold(v) && !!(v.clock && v.clock.per_move) && serverHasMail();
    mailBox.hidden = !open;
    const state = mailState(id);
    const key = JSON.stringify([open, state, mailBusy]);
    if (!open || mailBox.dataset.key === key) return;
    mailBox.dataset.key = key;
    const off = h('button', { class: 'secondary', id: 'mail-off', onclick: mailStop }, t('mail.off'));
    if (state) {
      fill(mailBox, h('span', { id: 'mail-state' }, t(state.state === 'on' ? 'mail.on' : 'mail.sent', { email: state.email || '' })), off);
      return;
    }
    const input = h('input', { type: 'email', id: 'mail-address', autocomplete: 'email', maxlength: 254, placeholder: t('mail.placeholder'),
      onkeydown: (e) => { if (e.key === 'Enter') mailStart(input); } });
    fill(mailBox, h('label', { for: 'mail-address' }, t('mail.label')), input,
      h('button', { class: 'secondary', id: 'mail-on', disabled: mailBusy, onclick: () => mailStart(input) }, t('mail.ask')));
  }
  // A player's private link to continue on another device: it carries the seat's token.
  const resume = h('details', { class: 'resume', id: 'resume', hidden: true });
  fill(app, title, topPlayer, boardWrap, bottomPlayer, status, sayings.said, seatNote, share,
    offerBox, h('div', { class: 'row' }, buttons.rematch, buttons.newGame, review, buttons.undo, buttons.offerTakeback,
      buttons.offerDraw, buttons.abort, buttons.resign, buttons.live),
    sayings.quick, pushBox, mailBox, h('div', { class: 'row' }, coachToggle), coachBox,
    h('h2', {}, t('moves')), moves,
    h('div', { class: 'row' }, download, copyPos, analyse, flip), hint, resume);

  function bottomSide() {
    const own = you || 'S';
    return flipped ? (own === 'S' ? 'N' : 'S') : own;
  }

  function send(msg) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(msg));
      return true;
    }
    toast(t('connecting'));
    return false;
  }

  function myTurn(v) {
    return you && !v.end && v.to_move === you && !v.thinking && !waitingForFriend(v);
  }

  function marks(v) {
    const last = v.moves.length ? LETTERS.indexOf(v.moves[v.moves.length - 1]) : undefined;
    const playing = !v.end && !waitingForFriend(v);
    const risk = coachOn && myTurn(v) && !pending ? coachRisk : null;
    return { legal: myTurn(v) && !pending && !offline ? v.legal : '', last, turn: playing ? v.to_move : undefined, risk };
  }

  // A house was pressed: the move, or why it cannot be played.
  function pick(letter) {
    if (!view || animating) return;
    const v = view;
    const i = LETTERS.indexOf(letter);
    const mine = you && (i < 6 ? 'S' : 'N') === you;
    let why = null;
    if (offline) why = t('connectionLost');
    else if (browse !== null) why = t('why.browsing');
    else if (!you) why = t('err.not-a-player');
    else if (v.end) why = t('err.game-over');
    else if (waitingForFriend(v)) why = t('why.waiting');
    else if (v.thinking || v.to_move !== you || pending) why = t('err.not-your-turn');
    else if (!mine) why = t('err.not-your-house');
    else if (parsePosition(v.position).houses[i] === 0) why = t('err.empty-house');
    else if (!v.legal.includes(letter)) why = t('err.must-feed');
    if (why) {
      toast(why);
      return;
    }
    if (send({ type: 'move', move: letter, ply: v.moves.length })) {
      pending = true;
      status.textContent = t('sending');
      board.draw(parsePosition(v.position), marks(v));
    }
  }

  // The rematch, with the sides swapped: the server makes it for the first player who asks (both
  // seats at once between friends; the computer keeps its level) and seats the other one there
  // when they ask in turn.
  async function openRematch() {
    try {
      const seat = await api('POST', '/api/games/' + id + '/rematch', token ? { token } : undefined);
      saved.set('oware.token.' + seat.id, seat.token);
      myGames.remember({ id: seat.id, side: seat.side, mode: view.mode, level: view.level });
      location.href = '/game/' + seat.id;
    } catch (e) { toast(errorText(e)); }
  }

  const clocks = clockDisplay(() => offline);

  function describe(v) {
    if (v.end) return endText(v.end, you);
    if (!you) return t('watching') + ' ' + t('toMove', { side: sideName(v.to_move) });
    if (waitingForFriend(v)) return t('waitingFriend');
    if (v.thinking) return t('thinking');
    if (pending) return t('sending');
    return v.to_move === you ? t('yourTurn') : t('theirTurn');
  }

  // A new invitation: the old link lets nobody in, and a friend seated before the first move
  // loses the seat.
  async function reinvite(done) {
    try {
      const r = await api('POST', '/api/games/' + id + '/invitation', token ? { token } : undefined);
      inviteCode = r.invite;
      delete share.dataset.drawn;
      toast(t(done));
      if (view) redraw();
    } catch (e) { toast(errorText(e)); }
  }

  function drawPanel(v) {
    const text = offline ? t('connectionLost') : animating ? animatingText(animating, you) : browse !== null ? t('lookingBack', { move: moveLabel(v.start, browse, v.moves[browse - 1]) }) : describe(v);
    status.textContent = text;
    status.className = 'status' + (offline ? ' offline' : '') + (v.end && !animating ? ' over' : '') + (myTurn(v) && !animating && !pending && browse === null ? ' yours' : '');
    if (!animating) setTitle(v.end ? endText(v.end, you) : describe(v));
    fill(title, v.mode === 'computer' ? t('title.computerGame', { n: v.level })
      : nameOf('S', v) && nameOf('N', v) ? tNodes('vs', { south: nameNode(nameOf('S', v)), north: nameNode(nameOf('N', v)) })
        : t('title.friendGame'));
    drawSeatNote(seatNote, v, you, watchReason, reinvite);
    const top = bottomSide() === 'N' ? 'S' : 'N';
    playerChip(topPlayer, top, v, you);
    playerChip(bottomPlayer, top === 'S' ? 'N' : 'S', v, you);
    clocks.show(v.clock);
    fill(moves, notation(v.start, v.moves, browse === null ? v.moves.length : browse, 0, v.captures));
    if (browse === null) moves.scrollTop = moves.scrollHeight;
    showButtons(buttons, v, you, browse !== null);
    sayings.quick.hidden = !(you && v.mode === 'friend' && v.seated[0] && v.seated[1]);
    drawOffer(offerBox, v, you, send, openRematch);
    drawShare(v);
    drawPush(v);
    drawMail(v);
    resume.hidden = !(you && token);
    if (you && token && !resume.dataset.token) {
      resume.dataset.token = token;
      const url = publicOrigin() + '/game/' + id + '#t=' + token;
      fill(resume, h('summary', {}, t('resume.title')), h('p', {}, t('resume.hint')),
        h('div', { class: 'row' },
          h('input', { value: url, readonly: true, id: 'resume-link', 'aria-label': t('resume.title'), onfocus: (e) => e.target.select() }),
          h('button', { class: 'secondary', onclick: () => copy(url) }, t('copyLink'))));
    }
    const keys = you === 'N' ? 'a–f' : 'A–F';
    hint.textContent = you && !v.end ? t('keysHint', { keys }) : '';
    review.hidden = !(v.end && you);
    coachToggle.hidden = !you || !!v.end;
    coach(v);
    document.body.dataset.ply = v.moves.length;
    document.body.dataset.offline = offline ? '1' : '0';
    document.body.dataset.over = v.end && !animating ? '1' : '0';
    document.body.dataset.waiting = you && waitingForFriend(v) ? '1' : '0';
  }

  // The coach's advice for the position on the board, asked once per position.
  async function coach(v) {
    const wanted = coachOn && myTurn(v) && !pending && !animating && browse === null;
    if (!wanted) { coachBox.hidden = true; return; }
    const key = v.start + ' ' + v.moves;
    coachBox.hidden = false;
    if (coachBox.dataset.for === key) return;
    coachBox.dataset.for = key;
    fill(coachBox, h('p', { class: 'hint' }, Coach.text('coach.thinking')));
    let r;
    try { r = await Coach.explain(v.start, v.moves, v.rules); } catch (e) {
      if (coachBox.dataset.for === key) fill(coachBox, h('p', { class: 'error' }, errorText(e)));
      return;
    }
    if (coachBox.dataset.for !== key) return;
    fill(coachBox, Coach.advice(r), Coach.threatList(r));
    coachRisk = Coach.housesAtRisk(r, you);
    if (view && !animating && browse === null) board.draw(parsePosition(view.position), marks(view));
  }

  // The friend link while the friend has not come (see `shareParts`), drawn again only for a new
  // code.
  function drawShare(v) {
    const open = you && waitingForFriend(v) && !!inviteCode;
    share.hidden = !open;
    if (!open || share.dataset.drawn === inviteCode) return;
    share.dataset.drawn = inviteCode;
    const url = publicOrigin() + '/game/' + id + '#i=' + inviteCode;
    fill(share, shareParts(url, reinvite));
  }

  // Looking back: the board shows the position after `ply` moves (null: the game now).
  async function lookAt(ply) {
    if (!view) return;
    if (ply !== null && (ply < 0 || ply >= view.moves.length)) ply = ply < 0 ? 0 : null;
    if (ply !== null && (!history_ || history_.moves !== view.moves)) {
      try {
        const r = await api('POST', '/api/replay', { text: view.start + ' ' + view.moves, rules: view.rules });
        history_ = { moves: view.moves, positions: r.positions };
      } catch (e) { toast(errorText(e)); return; }
    }
    browse = ply;
    redraw();
  }

  function shownPosition() {
    return browse !== null && history_ ? history_.positions[browse] : view.position;
  }

  function redraw() {
    if (!view || animating) return;
    if (browse !== null) {
      const last = browse > 0 ? LETTERS.indexOf(view.moves[browse - 1]) : undefined;
      board.draw(parsePosition(history_.positions[browse]), { last });
    } else board.draw(parsePosition(view.position), marks(view));
    drawPanel(view);
  }

  // Shows a new state: moves added since the board's state are animated one by one. The move
  // list and the status say at once what is being played.
  function show(v) {
    queue = queue.then(async () => {
      const old = shown;
      if (old && v.moves.length !== old.moves.length) pending = false;
      const grew = old && v.moves.length > old.moves.length && v.moves.startsWith(old.moves) && v.moves.length - old.moves.length <= 2;
      if (grew && browse === null && !document.hidden) {
        // The positions in between come from the server too: each animation ends on a position
        // the server sent (the last one), and a middle one, if any, comes from /api/replay.
        let before = parsePosition(old.position);
        const added = v.moves.slice(old.moves.length);
        let middle = [];
        if (added.length > 1) {
          const r = await api('POST', '/api/replay', { text: v.start + ' ' + v.moves, rules: v.rules }).catch(() => null);
          middle = r ? r.positions.slice(old.moves.length + 1, v.moves.length) : [];
        }
        for (let i = 0; i < added.length; i++) {
          const afterText = i === added.length - 1 ? v.position : middle[i];
          if (!afterText) break;
          const after = parsePosition(afterText);
          const last = i === added.length - 1;
          animating = added[i];
          drawPanel(Object.assign({}, v, { moves: v.moves.slice(0, old.moves.length + i + 1) }));
          await board.animate(before, added[i], after, last ? Object.assign(marks(v), { legal: '' }) : { last: LETTERS.indexOf(added[i]) });
          if (after.stores[0] + after.stores[1] > before.stores[0] + before.stores[1]) sound.capture();
          before = after;
        }
        animating = null;
      }
      if (old && document.hidden && (v.moves.length > old.moves.length || (v.end && !old.end))) notifyInBackground(v);
      shown = v;
      redraw();
    });
  }

  // The opponent moved while the page is in the background: the tab's title says so (and a
  // sound, unless sounds are off) until the player comes back.
  function notifyInBackground(v) {
    if (!you) return;
    if (!(v.end || myTurn(v))) return;
    attention.pending = true;
    sound.notify();
  }
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) {
      attention.pending = false;
      if (view) drawPanel(view);
    }
  });

  function connect() {
    // The game's own folder: the seat cookie goes along, so a player is recognised even when
    // this page knows no token. The token itself never goes in the address; where the browser
    // keeps no cookies, the page sends it in a first message instead.
    socket = new WebSocket(socketUrl('/api/games/' + id + '/ws'));
    socket.onopen = () => {
      if (token) socket.send(JSON.stringify({ type: 'seat', token }));
    };
    socket.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === 'welcome') {
        you = msg.you;
        offline = false;
        board.setBottom(bottomSide());
      } else if (msg.type === 'state') {
        retry = 500;
        if (you && msg.game.mode === 'friend' && !msg.game.seated[you === 'S' ? 0 : 1]) {
          // The other player freed this seat before the first move: this page now only watches.
          sessionStorage.setItem(freedKey, '1');
          saved.set(tokenKey, '');
          location.replace('/game/' + id);
          return;
        }
        view = msg.game;
        if (rematchAtStart === undefined) rematchAtStart = view.rematch;
        // A watcher follows the players to the rematch they start.
        if (!you && view.rematch && view.rematch !== rematchAtStart) {
          location.href = '/game/' + view.rematch;
          return;
        }
        show(view);
      } else if (msg.type === 'said' && SAYINGS.includes(msg.what)) {
        sayings.hear(msg, you, view);
      } else if (msg.type === 'error') {
        pending = false;
        toast(errorText(msg));
        if (view) redraw();
      }
    };
    socket.onclose = () => {
      if (!offline) clocks.stop();
      offline = true;
      if (view && !animating) redraw();
      status.textContent = t('connectionLost');
      setTimeout(connect, retry);
      // At most 4 s between tries: after a server restart the clocks wait 5 s for the pages.
      retry = Math.min(retry * 2, 4000);
    };
  }

  document.addEventListener('keydown', (e) => {
    if (!view || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      const now = browse === null ? view.moves.length : browse;
      const to = now + (e.key === 'ArrowLeft' ? -1 : 1);
      lookAt(to >= view.moves.length ? null : Math.max(0, to));
      return;
    }
    if (!you) return;
    const i = 'abcdef'.indexOf(e.key.toLowerCase());
    if (i < 0 || e.key.length !== 1) return;
    pick(you === 'S' ? 'ABCDEF'[i] : 'abcdef'[i]);
  });

  (async () => {
    // The server says which seat is ours: the token we hold, else the seat cookie (a reload in
    // a browser that kept no storage), else the free side of a friend game, else none (watch).
    // It also sets the seat cookie, so a private link opened once keeps working on that device.
    try {
      // An invited visitor says who they are first (asked once: the browser remembers it).
      if (invite && !token && !playerName.get()) await askName(id, status);
      const name = playerName.get();
      const body = Object.assign({}, token ? { token } : {}, invite ? { invite } : {}, name ? { name } : {});
      const seat = await api('POST', '/api/games/' + id + '/join', Object.keys(body).length ? body : undefined);
      if (invite) history.replaceState(null, '', '/game/' + id);
      if (seat.token) {
        token = seat.token;
        saved.set(tokenKey, token);
        inviteCode = seat.invite || null;
        const known = myGames.list().find((g) => g.id === id);
        myGames.remember(Object.assign({}, known, { id, side: seat.side }));
        sessionStorage.removeItem(freedKey);
      } else {
        watchReason = sessionStorage.getItem(freedKey) ? 'freed' : invite ? 'taken' : 'link';
      }
    } catch (e) {
      if (e.status === 404) notFoundPage();
      else status.textContent = errorText(e);
      return;
    }
    await loadServerInfo();
    connect();
  })();
}
