// The pages: home, game, analysis, rules, not found. Each page load draws the page its path
// names. The server referees everything: this script sends requests and draws what comes back.
'use strict';

const app = document.getElementById('app');

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) el.setAttribute(k, v === true ? '' : v);
  }
  fill(el, ...children);
  return el;
}

// Sets an element's children; null and undefined mean "nothing here" (replaceChildren would
// print them as the words "null" and "undefined").
function fill(el, ...children) {
  Element.prototype.replaceChildren.call(el, ...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove('show'), 3500);
}

// Set while the opponent has moved and the page is in the background: the title is marked.
const attention = { pending: false };

// The page's title: what the page is, then the site.
function setTitle(text) {
  document.title = (attention.pending && document.hidden ? '● ' : '') + (text ? text + ' — Oware' : 'Oware');
}

// An error the server refused a request with: its code picks the text in the page's language;
// the server's own (English) sentence is kept for what has no translation.
class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

function errorText(e) {
  if (e && e.code && has('err.' + e.code)) return t('err.' + e.code);
  if (e instanceof TypeError) return t('err.network');
  return (e && e.message) || String(e);
}

async function api(method, path, body) {
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

function copy(text) {
  const done = () => toast(t('copied') + ': ' + text);
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, done);
  else {
    const ta = h('textarea', {}, text);
    document.body.append(ta);
    ta.select();
    try { document.execCommand('copy'); } catch (e) { /* the toast still shows the text */ }
    ta.remove();
    done();
  }
}

function sideName(side) { return t(side === 'S' ? 'south' : 'north'); }

// A player's name as the page shows it: a text node in an isolating element, so that a name
// written right to left (Arabic, Hebrew) keeps to itself and leaves the words around it in their
// order. Names go into texts only this way (see `tNodes`), never into a template's string.
function nameNode(name) { return h('bdi', { class: 'player-name' }, name); }

// The `ply`-th move (1 for the first) as the move list numbers it: "4. D" for South's fourth,
// "4... d" for North's; `letter` when known.
function moveLabel(start, ply, letter) {
  const index = ply - 1 + (start.slice(-1) === 'N' ? 1 : 0);
  const south = index % 2 === 0;
  return Math.floor(index / 2) + 1 + (south ? '.' : '...') + (letter ? ' ' + letter : '');
}

// "1. F f 2. E a": the moves numbered by pairs, South's first; each number stays on one line
// with its moves. Each move is a button-like span that carries its ply (the number of moves
// played once it is on the board); a move that captured says how many seeds (`captures`, one
// count a move, when known). `from` skips the first moves (a variation shows only its own).
function notation(start, moves, current, from, captures) {
  const first = start.slice(-1);
  const out = [];
  let pair = null;
  for (let i = from || 0; i < moves.length; i++) {
    const index = i + (first === 'N' ? 1 : 0);
    const south = 'ABCDEF'.includes(moves[i]);
    if (south || !pair) {
      pair = h('span', { class: 'pair' });
      out.push(pair, ' ');
    }
    if (south) pair.append(h('span', { class: 'num' }, Math.floor(index / 2) + 1 + '. '));
    else if (i === (from || 0)) pair.append(h('span', { class: 'num' }, Math.floor(index / 2) + 1 + '... '));
    else pair.append(' ');
    const took = captures && captures[i];
    pair.append(h('span', { class: 'ply' + (i + 1 === current ? ' current' : '') + (took ? ' took' : ''), 'data-ply': i + 1, tabindex: '-1' },
      moves[i], took ? h('span', { class: 'capture', title: t('captured', { n: took }) }, '×' + took) : null));
  }
  return out;
}

// How a game ended, as its reader sees it: the winner's score first (a draw: the reader's, or
// South's for a watcher), then why. A game the players ended before any seed was captured shows
// no score (a 0–0 would read as the result).
function endText(end, you) {
  if (end.reason === 'aborted') return t('aborted');
  const [s, n] = end.score.split('-');
  const first = end.winner || you || 'S';
  const shown = first === 'N' ? n + '–' + s : s + '–' + n;
  const byPlayers = ['resign', 'agreement', 'time'].includes(end.reason);
  const none = Number(s) + Number(n) === 0;
  const score = (byPlayers && none ? '' : shown + ' ') + '— ' + t('reason.' + end.reason);
  if (!end.winner) return t('drawn', { score });
  if (you) return t(end.winner === you ? 'won' : 'lost', { score });
  return t('winnerIs', { side: sideName(end.winner), score });
}

// ---------------------------------------------------------------- sound

// Short tones made on the spot (no sound files): a tick for each seed sown, a chord for a
// capture, a call when the opponent has moved while the page is in the background. Off when the
// player says so (remembered).
const sound = {
  ctx: null,
  on() { return saved.get('oware.sound') !== 'off'; },
  tone(freq, ms, gain) {
    if (!this.on()) return;
    try {
      this.ctx = this.ctx || new (window.AudioContext || window.webkitAudioContext)();
      if (this.ctx.state === 'suspended') this.ctx.resume();
      const osc = this.ctx.createOscillator();
      const vol = this.ctx.createGain();
      const now = this.ctx.currentTime;
      osc.frequency.value = freq;
      vol.gain.setValueAtTime(gain, now);
      vol.gain.exponentialRampToValueAtTime(0.0001, now + ms / 1000);
      osc.connect(vol).connect(this.ctx.destination);
      osc.start(now);
      osc.stop(now + ms / 1000);
    } catch (e) { /* no audio here: silence */ }
  },
  sow() { this.tone(660, 60, 0.05); },
  capture() { this.tone(523, 180, 0.08); setTimeout(() => this.tone(784, 220, 0.08), 90); },
  notify() { this.tone(880, 150, 0.1); setTimeout(() => this.tone(1175, 200, 0.1), 160); },
};

// ---------------------------------------------------------------- my games

// The games this browser holds a seat in, newest first: { id, side, mode, level, at }.
const myGames = {
  list() {
    let list = [];
    try { list = JSON.parse(saved.get('oware.games') || '[]'); } catch (e) { list = []; }
    if (!Array.isArray(list)) list = [];
    return list.filter((g) => g && /^[0-9a-f]{32}$/.test(g.id));
  },
  remember(entry) {
    const list = this.list().filter((g) => g.id !== entry.id);
    list.unshift(Object.assign({ at: Date.now() }, entry));
    saved.set('oware.games', JSON.stringify(list.slice(0, 50)));
  },
  forget(id) {
    saved.set('oware.games', JSON.stringify(this.list().filter((g) => g.id !== id)));
  },
};

// ---------------------------------------------------------------- names

// The player's name, asked once and remembered by this browser (editable on the home page). It
// goes with every game made or joined; the server cleans it too, and the page shows names only
// as text.
const playerName = {
  get() { return saved.get('oware.name') || ''; },
  set(value) { saved.set('oware.name', String(value).replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim().slice(0, 40)); },
};

function nameInput(id) {
  return h('input', { id, name: 'player-name', maxlength: '40', autocomplete: 'nickname', value: playerName.get(),
    placeholder: t('name.placeholder'), oninput: (e) => playerName.set(e.target.value) });
}

// ---------------------------------------------------------------- home

function levelSelect() {
  const s = h('select', { name: 'level' });
  // Each level with a word for how strong it is (one word for each pair of levels).
  for (let i = 1; i <= 10; i++) s.append(h('option', { value: i, selected: i === 3 }, i + ' · ' + t('levelDesc.' + (i % 2 ? i : i - 1))));
  return s;
}
function sideSelect(withRandom) {
  return h('select', { name: 'side' },
    h('option', { value: 'S' }, t('side.S')), h('option', { value: 'N' }, t('side.N')),
    withRandom ? h('option', { value: 'random' }, t('side.random')) : null);
}
function rulesSelect() {
  return h('select', { name: 'rules' }, h('option', { value: 'abapa' }, t('rules.abapa')), h('option', { value: 'awari' }, t('rules.awari')));
}

// Creates a game and opens it; the seat's token is kept, and the game joins "My games". One game
// per press: the buttons that make games wait while one is being made.
let creating = false;
async function createGame(body, errorEl) {
  if (creating) return;
  if (errorEl) errorEl.textContent = '';
  creating = true;
  const buttons = [...document.querySelectorAll('#play-now, #invite-now, #play-computer, #play-friend')];
  for (const b of buttons) b.disabled = true;
  const name = playerName.get();
  try {
    const g = await api('POST', '/api/games', Object.assign({}, body, name ? { name } : {}));
    saved.set('oware.token.' + g.id, g.token);
    myGames.remember({ id: g.id, side: g.side, mode: body.mode, level: body.level });
    location.href = '/game/' + g.id;
  } catch (e) {
    creating = false;
    for (const b of buttons) b.disabled = false;
    toast(errorText(e));
    if (errorEl) errorEl.textContent = errorText(e);
  }
}

// The clocks a game may have: minutes each, and seconds added after each move ("5+3"); between
// friends also days for each move ("d2": correspondence, for families who play when they can).
const CLOCKS = ['0', '5', '10', '20', '3+2', '5+3', '10+5'];
const DAYS = ['d1', 'd2', 'd3', 'd7'];

// The presets, then "custom": any whole minutes (1 to 180, the server's limit) and increment
// (0 to 30 s), in two fields shown only for it.
function clockField(prefix, withDays) {
  const select = h('select', { name: 'clock', id: prefix + '-clock', onchange: () => { custom.hidden = select.value !== 'custom'; } },
    CLOCKS.map((c) => {
      const [n, s] = c.split('+').map(Number);
      return h('option', { value: c }, n === 0 ? t('clock.none') : s ? t('clock.increment', { n, s }) : t('clock.minutes', { n }));
    }),
    h('option', { value: 'custom' }, t('clock.custom')),
    withDays ? DAYS.map((d) => {
      const n = Number(d.slice(1));
      return h('option', { value: d }, n === 1 ? t('clock.day1') : t('clock.days', { n }));
    }) : null);
  const custom = h('div', { class: 'row custom-clock', hidden: true },
    h('label', {}, t('clock.customMinutes') + ' ',
      h('input', { type: 'number', name: 'minutes', min: '1', max: '180', step: '1', value: '15', inputmode: 'numeric' })),
    h('label', {}, t('clock.customIncrement') + ' ',
      h('input', { type: 'number', name: 'increment', min: '0', max: '30', step: '1', value: '0', inputmode: 'numeric' })));
  return [h('label', {}, t('clock') + ' ', select), custom];
}

// The set-up board: a number field with - and + for each house (laid out as on the board, North's
// row on top from f to a), the two stores and the side to move, kept in step with a position
// string that can be typed or pasted instead. The server checks the position's legality; the page
// checks only the total, to say so before asking.
function setupBoard(prefix) {
  const houses = [];
  const stores = [];
  const count = h('p', { class: 'setup-count', 'aria-live': 'polite' });
  const text = h('input', { id: prefix + '-position', class: 'setup-string', autocomplete: 'off', spellcheck: 'false',
    oninput: () => fromText() });
  const side = h('select', { id: prefix + '-to-move', onchange: () => toText() },
    h('option', { value: 'S' }, t('south')), h('option', { value: 'N' }, t('north')));
  // Below the form's other fields: it also says what the server refused (a clock, say).
  const error = h('p', { class: 'form-error', role: 'alert' });
  const number = (label, value) => {
    const input = h('input', { type: 'number', min: '0', max: '48', step: '1', value, inputmode: 'numeric', 'aria-label': label,
      oninput: () => toText() });
    const step = (d) => {
      input.value = Math.min(48, Math.max(0, (Number(input.value) || 0) + d));
      toText();
    };
    const cell = h('div', { class: 'setup-cell' },
      h('button', { type: 'button', class: 'secondary', 'aria-label': t('setup.less', { what: label }), onclick: () => step(-1) }, '−'),
      input,
      h('button', { type: 'button', class: 'secondary', 'aria-label': t('setup.more', { what: label }), onclick: () => step(1) }, '+'));
    return { input, cell };
  };
  for (let i = 0; i < 12; i++) {
    const letter = LETTERS[i];
    houses.push(number(t('setup.house', { side: sideName(i < 6 ? 'S' : 'N'), letter }), '4'));
  }
  for (const s of ['S', 'N']) stores.push(number(t('setup.store', { side: sideName(s) }), '0'));
  const values = () => [...houses, ...stores].map((c) => Number(c.input.value) || 0);
  const total = () => values().reduce((a, b) => a + b, 0);
  const showCount = () => {
    const n = total();
    count.textContent = t('setup.count', { n });
    count.classList.toggle('bad', n !== 48);
  };
  function toText() {
    text.value = values().join('-') + '-' + side.value;
    error.textContent = '';
    showCount();
  }
  function fromText() {
    const f = text.value.trim().split('-');
    error.textContent = '';
    if (f.length !== 15 || f.slice(0, 14).some((v) => !/^\d{1,2}$/.test(v)) || !/^[SNsn]$/.test(f[14])) return;
    [...houses, ...stores].forEach((c, i) => { c.input.value = Number(f[i]); });
    side.value = f[14].toUpperCase();
    showCount();
  }
  const letterRow = (indices) => h('div', { class: 'setup-row' }, indices.map((i) =>
    h('div', { class: 'setup-house' }, h('span', { class: 'setup-letter', 'aria-hidden': 'true' }, LETTERS[i]), houses[i].cell)));
  const el = h('fieldset', { class: 'setup', id: prefix + '-setup', hidden: true },
    h('legend', {}, t('setup.title')),
    h('p', { class: 'hint' }, t('setup.hint')),
    h('div', { class: 'setup-board' },
      letterRow([11, 10, 9, 8, 7, 6]),
      letterRow([0, 1, 2, 3, 4, 5])),
    h('div', { class: 'row setup-stores' },
      ['S', 'N'].map((s, i) => h('div', { class: 'setup-store' },
        h('span', { 'aria-hidden': 'true' }, t('setup.store', { side: sideName(s) })), stores[i].cell))),
    h('label', { for: prefix + '-to-move' }, t('setup.toMove') + ' '), side,
    h('label', { for: prefix + '-position' }, t('setup.string')), text,
    count);
  toText();
  return {
    el, error,
    // The position string to send, or null after saying on the page what is wrong with it.
    position() {
      if (text.value.trim() !== values().join('-') + '-' + side.value) {
        error.textContent = t('setup.badString');
        return null;
      }
      const n = total();
      if (n !== 48) {
        error.textContent = t('setup.badTotal', { n });
        return null;
      }
      return text.value.trim();
    },
  };
}

// Where a game starts: the usual start, or a position set up on the board above.
function startField(prefix, setup) {
  return h('label', {}, t('start') + ' ',
    h('select', { name: 'start', id: prefix + '-start', onchange: (e) => { setup.el.hidden = e.target.value !== 'setup'; } },
      h('option', { value: 'usual' }, t('start.usual')), h('option', { value: 'setup' }, t('start.setup'))));
}

function startGame(form, mode, setup) {
  const body = { mode, side: form.side.value, rules: form.rules.value };
  if (mode === 'computer') body.level = Number(form.level.value);
  if (form.start.value === 'setup') {
    const position = setup.position();
    if (!position) return;
    body.position = position;
  }
  if (form.clock.value.startsWith('d')) body.days = Number(form.clock.value.slice(1));
  else if (form.clock.value === 'custom') {
    body.clock = Number(form.minutes.value);
    body.increment = Number(form.increment.value);
  } else {
    const [minutes, increment] = form.clock.value.split('+').map(Number);
    if (minutes) body.clock = minutes;
    if (increment) body.increment = increment;
  }
  return createGame(body, setup.error);
}

// Time left as a clock shows it: minutes and seconds, or hours or days when there are that many
// (correspondence games).
function clockText(ms) {
  const secs = Math.ceil(ms / 1000);
  if (secs >= 86400) return t('clock.dh', { d: Math.floor(secs / 86400), h: Math.floor(secs % 86400 / 3600) });
  if (secs >= 3600) return t('clock.hm', { h: Math.floor(secs / 3600), m: Math.floor(secs % 3600 / 60) });
  return Math.floor(secs / 60) + ':' + String(secs % 60).padStart(2, '0');
}

function homePage() {
  setTitle(t('title.home'));
  const preview = h('div', { class: 'board-wrap hero-board', 'aria-hidden': 'true' });
  new Board(preview, {}).draw(parsePosition('4-4-4-4-4-4-4-4-4-4-4-4-0-0-S'), {});
  const hero = h('section', { class: 'hero' },
    h('h1', {}, t('home.title')),
    preview,
    h('div', { class: 'row center' },
      h('button', { class: 'big', id: 'play-now', onclick: () => createGame({ mode: 'computer', side: 'S', level: 3, rules: 'abapa' }) }, t('home.playNow')),
      h('button', { class: 'big secondary', id: 'invite-now', onclick: () => createGame({ mode: 'friend', side: 'S', rules: 'abapa' }) }, t('home.inviteNow'))),
    h('p', { class: 'hint center' }, t('home.playNowHint')),
    h('div', { class: 'name-field center' },
      h('label', { for: 'player-name' }, t('name.label') + ' '), nameInput('player-name'),
      h('p', { class: 'hint' }, t('name.hint'))));
  const computerSetup = setupBoard('computer');
  const computer = h('form', { class: 'card', id: 'computer-form', novalidate: true, onsubmit: (e) => { e.preventDefault(); startGame(computer, 'computer', computerSetup); } },
    h('h3', {}, t('home.computer')),
    h('label', {}, t('level') + ' ', levelSelect()),
    h('label', {}, t('side') + ' ', sideSelect(true)),
    h('label', {}, t('ruleset') + ' ', rulesSelect()),
    clockField('computer'),
    startField('computer', computerSetup), computerSetup.el, computerSetup.error,
    h('button', { type: 'submit', id: 'play-computer' }, t('play')));
  const friendSetup = setupBoard('friend');
  const friend = h('form', { class: 'card', id: 'friend-form', novalidate: true, onsubmit: (e) => { e.preventDefault(); startGame(friend, 'friend', friendSetup); } },
    h('h3', {}, t('home.friend')),
    h('p', {}, t('home.friendHint')),
    h('label', {}, t('side') + ' ', sideSelect(true)),
    h('label', {}, t('ruleset') + ' ', rulesSelect()),
    clockField('friend', true),
    startField('friend', friendSetup), friendSetup.el, friendSetup.error,
    h('button', { type: 'submit', id: 'play-friend' }, t('createLink')));
  const open = h('form', { class: 'card', onsubmit: (e) => {
    e.preventDefault();
    sessionStorage.setItem('oware.analyse', open.text.value);
    location.href = '/analysis';
  } },
    h('h3', {}, t('home.open')),
    h('p', {}, t('home.openHint')),
    h('textarea', { name: 'text', placeholder: '1. F f 2. E a', 'aria-label': t('home.open') }),
    h('button', { type: 'submit' }, t('open')));
  const mine = h('section', { id: 'my-games', hidden: true });
  fill(app, hero, mine, h('h2', {}, t('home.more')), h('div', { class: 'cards' }, computer, friend, open));
  showMyGames(mine);
}

// "My games": what the server says of each game this browser holds a seat in. A game the server
// no longer knows is dropped from the list.
async function showMyGames(section) {
  const list = myGames.list().slice(0, 10);
  if (!list.length) return;
  const rows = await Promise.all(list.map(async (g) => {
    try { return { g, v: await api('GET', '/api/games/' + g.id) }; } catch (e) {
      if (e.status === 404) myGames.forget(g.id);
      return null;
    }
  }));
  const items = rows.filter(Boolean).map(({ g, v }) => {
    const other = g.side === 'N' ? 0 : 1;
    const opponent = v.mode === 'computer' ? t('computer', { n: v.level })
      : v.names && v.names[other] ? nameNode(v.names[other]) : t('friend');
    let state;
    const waiting = v.mode === 'friend' && !(v.seated[0] && v.seated[1]);
    const yours = !v.end && !waiting && v.to_move === g.side;
    if (v.end) state = endText(v.end, g.side);
    else if (waiting) state = t('waitingFriend');
    else state = yours ? t('yourTurn') : t('theirTurnShort');
    // Moves as the move list numbers them: each player's sowing is a move, so a game of 8 plies
    // that South began has reached its 4th move.
    const plies = Math.ceil(v.moves.length / 2);
    // Forgetting takes the game off this list only: its link (and the seat it holds) still works.
    const forget = h('button', { type: 'button', class: 'forget', 'aria-label': t('myGames.forget'), title: t('myGames.forget') }, '✕');
    const item = h('li', { class: v.end ? 'over' : yours ? 'turn' : '' },
      h('a', { href: '/game/' + g.id },
        h('strong', {}, tNodes('myGames.against', { who: opponent })), ' · ',
        g.side ? sideName(g.side) + ' · ' : '', t(plies === 1 ? 'myGames.move1' : 'myGames.moves', { n: plies })),
      h('span', { class: 'state' + (yours ? ' badge' : '') }, state), forget);
    forget.addEventListener('click', () => {
      myGames.forget(g.id);
      const next = item.nextElementSibling || item.previousElementSibling;
      item.remove();
      if (!section.querySelector('li')) section.hidden = true;
      else next.querySelector('button.forget').focus();
    });
    return item;
  });
  if (!items.length) return;
  const all = h('button', { type: 'button', class: 'secondary', id: 'download-all', onclick: () => downloadAll(all) }, t('myGames.downloadAll'));
  // How many games wait for this player's move: a badge by the heading, and in the tab's title.
  const turns = items.filter((li) => li.classList.contains('turn')).length;
  const badge = turns ? h('span', { class: 'badge', id: 'turns' }, t(turns === 1 ? 'myGames.turn1' : 'myGames.turns', { n: turns })) : null;
  if (turns) document.title = '(' + turns + ') ' + document.title;
  fill(section, h('h2', {}, t('myGames.title'), ' ', badge), h('ul', { class: 'my-games' }, items), h('div', { class: 'row' }, all));
  section.hidden = false;
}

// Every game this browser knows, as one OGN file: each game's record from the server, one after
// another (a record file may hold many games). Games the server no longer has are left out.
async function downloadAll(button) {
  button.disabled = true;
  try {
    const texts = await Promise.all(myGames.list().map(async (g) => {
      const res = await fetch('/api/games/' + g.id + '/record');
      return res.ok ? res.text() : null;
    }));
    const file = texts.filter(Boolean).map((r) => r.trim() + '\n').join('\n');
    const url = URL.createObjectURL(new Blob([file], { type: 'text/plain;charset=utf-8' }));
    const a = h('a', { href: url, download: 'oware-games.ogn', hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) { toast(errorText(e)); }
  button.disabled = false;
}

// ---------------------------------------------------------------- game

// The QR code of `text` as an SVG image (dark modules on white, with the quiet zone the readers
// need), drawn from the module matrix of the vendored qrcode-generator (qrcode.js).
function qrCode(text) {
  if (typeof qrcode !== 'function') return null;
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

// Where friends reach this server: the public address it was given (oware serve --public-url),
// else the one this page was opened at. Asked once per page.
let serverInfo = null;
function publicOrigin() {
  return (serverInfo && serverInfo.public_url) || location.origin;
}
async function loadServerInfo() {
  try { serverInfo = await api('GET', '/api/server'); } catch (e) { serverInfo = {}; }
}

// `text` with each `word` in it set as code that never breaks across lines.
function withCode(text, word) {
  return text.split(word).flatMap((part, i) => (i ? [h('code', { class: 'nowrap' }, word), part] : [part]));
}

// Whether the page was opened on an address only this computer can reach.
function localOnly(hostname) {
  return /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|::1|0\.0\.0\.0)$/.test(hostname);
}

function gamePage(id) {
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
  // Quick messages between friends: fixed words sent as codes, each shown in the reader's
  // language (no free text, nothing to moderate).
  const SAYINGS = ['good-luck', 'your-move', 'well-played', 'thank-you', 'good-game'];
  const said = h('p', { class: 'said', id: 'said', role: 'status', 'aria-live': 'polite', hidden: true });
  const quick = h('div', { class: 'row quick', id: 'quick', role: 'group', 'aria-label': t('say.label'), hidden: true },
    SAYINGS.map((code) => h('button', { class: 'secondary say', id: 'say-' + code, onclick: () => send({ type: 'say', what: code }) }, t('say.' + code))));
  const share = h('div', { class: 'share', id: 'share', hidden: true });
  const moves = h('div', { class: 'moves', id: 'moves', onclick: (e) => {
    const el = e.target.closest && e.target.closest('[data-ply]');
    const p = el && el.dataset.ply;
    if (p) lookAt(Number(p));
  } });
  const live = h('button', { class: 'secondary', id: 'live', hidden: true, onclick: () => lookAt(null) }, t('backToGame') + ' ▶|');
  const undo = h('button', { class: 'secondary', id: 'undo', hidden: true, onclick: () => send({ type: 'undo' }) }, t('undo'));
  const rematch = h('button', { id: 'rematch', hidden: true, onclick: () => openRematch() }, t('rematch'));
  const newGame = h('a', { class: 'button secondary', id: 'new-game', href: '/', hidden: true }, t('newGame'));
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
  // An offer between friends (a draw, a takeback): the one it is made to answers it, the one who
  // made it may withdraw it. A rematch the friend started is offered here too.
  const offerBox = h('div', { class: 'offer', id: 'offer', hidden: true, role: 'alert' });
  const download = h('a', { class: 'button secondary', id: 'download', href: '/api/games/' + id + '/record' }, t('download'));
  const copyPos = h('button', { class: 'secondary', id: 'copy-position', onclick: () => view && copy(shownPosition()) }, t('copyPos'));
  const analyse = h('button', { class: 'secondary', id: 'analyse', onclick: () => {
    if (!view) return;
    sessionStorage.setItem('oware.analyse', view.start + ' ' + view.moves);
    sessionStorage.setItem('oware.analyseRules', view.rules);
    sessionStorage.setItem('oware.analysePly', browse === null ? '' : String(browse));
    location.href = '/analysis';
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
    if (!view) return;
    sessionStorage.setItem('oware.analyse', view.start + ' ' + view.moves);
    sessionStorage.setItem('oware.analyseRules', view.rules);
    sessionStorage.setItem('oware.review', you || '');
    location.href = '/analysis';
  } }, Coach.text('coach.review'));
  // A player's private link to continue on another device: it carries the seat's token.
  const resume = h('details', { class: 'resume', id: 'resume', hidden: true });
  fill(app, title, topPlayer, boardWrap, bottomPlayer, status, said, seatNote, share,
    offerBox, h('div', { class: 'row' }, rematch, newGame, review, undo, offerTakeback, offerDraw, abort, resign, live),
    quick, h('div', { class: 'row' }, coachToggle), coachBox,
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

  function waitingForFriend(v) {
    return v.mode === 'friend' && !(v.seated[0] && v.seated[1]);
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

  function drawOffer(v) {
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

  let clockState = null;
  function tickClocks() {
    if (!clockState) return;
    for (const el of app.querySelectorAll('.clock')) {
      const side = el.dataset.side;
      let ms = clockState.remaining_ms[side === 'S' ? 0 : 1];
      if (clockState.running === side && !offline) ms = Math.max(0, ms - (performance.now() - clockState.at));
      el.textContent = clockText(ms);
      el.classList.toggle('running', clockState.running === side);
      el.classList.toggle('low', ms < 30000);
    }
  }
  setInterval(tickClocks, 200);

  function describe(v) {
    if (v.end) return endText(v.end, you);
    if (!you) return t('watching') + ' ' + t('toMove', { side: sideName(v.to_move) });
    if (waitingForFriend(v)) return t('waitingFriend');
    if (v.thinking) return t('thinking');
    if (pending) return t('sending');
    return v.to_move === you ? t('yourTurn') : t('theirTurn');
  }

  function nameOf(side, v) {
    return (v.names && v.names[side === 'S' ? 0 : 1]) || null;
  }

  function seatName(side, v) {
    if (v.computer === side) return t('computer', { n: v.level });
    const name = nameOf(side, v);
    if (you === side) return name ? tNodes('youNamed', { name: nameNode(name) }) : t('you');
    // A player who gave no name: a friend, or the person playing the computer.
    if (!v.seated[side === 'S' ? 0 : 1]) return t('waiting');
    return name ? nameNode(name) : t(v.mode === 'computer' ? 'player' : 'friend');
  }

  // Why a visitor only watches, and how to get in; for the players of a friend game not yet
  // started, a way to free the seat of someone who was not the friend they invited.
  function drawSeatNote(v) {
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

  function playerChip(el, side, v) {
    const toMove = !v.end && !waitingForFriend(v) && v.to_move === side;
    el.classList.toggle('to-move', toMove);
    el.dataset.side = side;
    fill(el, h('span', { class: 'name' }, tNodes('labelled', { label: sideName(side), value: seatName(side, v) })),
      toMove ? h('span', { class: 'turn-dot', 'aria-hidden': 'true' }) : null,
      v.clock ? h('span', { class: 'clock', 'data-side': side }) : null);
  }

  // What the status line says while a move is shown being sown.
  function animatingText(move) {
    const side = 'ABCDEF'.includes(move) ? 'S' : 'N';
    if (side === you) return t('youPlay', { move });
    return t('sidePlays', { side: sideName(side), move });
  }

  function drawPanel(v) {
    const text = offline ? t('connectionLost') : animating ? animatingText(animating) : browse !== null ? t('lookingBack', { move: moveLabel(v.start, browse, v.moves[browse - 1]) }) : describe(v);
    status.textContent = text;
    status.className = 'status' + (offline ? ' offline' : '') + (v.end && !animating ? ' over' : '') + (myTurn(v) && !animating && !pending && browse === null ? ' yours' : '');
    if (!animating) setTitle(v.end ? endText(v.end, you) : describe(v));
    fill(title, v.mode === 'computer' ? t('title.computerGame', { n: v.level })
      : nameOf('S', v) && nameOf('N', v) ? tNodes('vs', { south: nameNode(nameOf('S', v)), north: nameNode(nameOf('N', v)) })
        : t('title.friendGame'));
    drawSeatNote(v);
    const top = bottomSide() === 'N' ? 'S' : 'N';
    playerChip(topPlayer, top, v);
    playerChip(bottomPlayer, top === 'S' ? 'N' : 'S', v);
    // The server sends the time left when it sent the state; the page counts the running clock
    // down from the moment the state arrived.
    clockState = v.clock ? { ...v.clock, remaining_ms: [...v.clock.remaining_ms], at: performance.now() } : null;
    tickClocks();
    fill(moves, notation(v.start, v.moves, browse === null ? v.moves.length : browse, 0, v.captures));
    if (browse === null) moves.scrollTop = moves.scrollHeight;
    undo.hidden = !(v.mode === 'computer' && you && !v.end);
    undo.disabled = !!v.thinking || !v.moves.split('').some((m) => (you === 'S') === 'ABCDEF'.includes(m));
    const playing = you && !v.end && !waitingForFriend(v);
    const friends = v.mode === 'friend';
    quick.hidden = !(you && friends && v.seated[0] && v.seated[1]);
    resign.hidden = !playing;
    abort.hidden = !(you && !v.end && !v.moves.split('').some((m) => (you === 'S') === 'ABCDEF'.includes(m)));
    offerDraw.hidden = !(playing && friends);
    offerTakeback.hidden = !(playing && friends);
    offerTakeback.disabled = !v.moves.split('').some((m) => (you === 'S') === 'ABCDEF'.includes(m));
    rematch.hidden = !(v.end && you) || (!!v.rematch && v.mode === 'friend');
    rematch.textContent = t('rematch');
    newGame.hidden = !(v.end && you);
    drawOffer(v);
    live.hidden = browse === null;
    drawShare(v);
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

  // The friend link while the friend has not come: the link, copy, the phone's share sheet, a QR
  // code, and a warning when the address only works on this computer.
  function drawShare(v) {
    const open = you && waitingForFriend(v) && !!inviteCode;
    share.hidden = !open;
    if (!open || share.dataset.drawn === inviteCode) return;
    share.dataset.drawn = inviteCode;
    const url = publicOrigin() + '/game/' + id + '#i=' + inviteCode;
    const shareSheet = navigator.share ? h('button', { class: 'secondary', id: 'share-sheet', onclick: () => {
      navigator.share({ title: 'Oware', text: t('share.text'), url }).catch(() => {});
    } }, t('share.send')) : null;
    fill(share, h('p', {}, t('share')), h('div', { class: 'row' },
      h('input', { value: url, readonly: true, id: 'share-link', 'aria-label': t('share'), onfocus: (e) => e.target.select() }),
      h('button', { onclick: () => copy(url), id: 'copy-link' }, t('copyLink')), shareSheet),
    localOnly(new URL(url).hostname) ? h('p', { class: 'warning', id: 'local-warning' }, ...withCode(t('share.localOnly'), '--public-url')) : null,
    h('div', { class: 'qr-wrap' }, qrCode(url), h('p', { class: 'hint' }, t('share.qrHint'))),
    h('div', { class: 'row' }, h('button', { class: 'secondary', id: 'new-link', onclick: () => reinvite('share.newLinkDone') }, t('share.newLink'))));
  }

  // Looking back: the board shows the position after `ply` moves (null: the game now).
  async function lookAt(ply) {
    if (!view) return;
    if (ply !== null && (ply < 0 || ply >= view.moves.length)) ply = ply < 0 ? 0 : null;
    if (ply !== null && (!history_ || history_.moves !== view.moves)) {
      try {
        const r = await api('POST', '/api/analyse', { text: view.start + ' ' + view.moves, rules: view.rules });
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
        // the server sent (the last one), and a middle one, if any, comes from /api/analyse.
        let before = parsePosition(old.position);
        const added = v.moves.slice(old.moves.length);
        let middle = [];
        if (added.length > 1) {
          const r = await api('POST', '/api/analyse', { text: v.start + ' ' + v.moves, rules: v.rules }).catch(() => null);
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
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    // The game's own folder: the seat cookie goes along, so a player is recognised even when
    // this page knows no token. The token itself never goes in the address; where the browser
    // keeps no cookies, the page sends it in a first message instead.
    socket = new WebSocket(proto + '//' + location.host + '/api/games/' + id + '/ws');
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
        const text = t('say.' + msg.what);
        if (msg.by === you) toast(t('say.sent', { text }));
        else {
          const name = view && nameOf(msg.by, view);
          fill(said, tNodes('say.from', { name: name ? nameNode(name) : sideName(msg.by), text }));
          said.hidden = false;
          clearTimeout(said.timer);
          said.timer = setTimeout(() => { said.hidden = true; }, 15000);
          sound.notify();
        }
      } else if (msg.type === 'error') {
        pending = false;
        toast(errorText(msg));
        if (view) redraw();
      }
    };
    socket.onclose = () => {
      if (!offline && clockState && clockState.running) {
        // The clock stands still at what it showed: the server's answer on reconnecting says
        // the time really left.
        const i = clockState.running === 'S' ? 0 : 1;
        clockState.remaining_ms[i] = Math.max(0, clockState.remaining_ms[i] - (performance.now() - clockState.at));
      }
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

  // The invitation's card: who invites, the visitor's name, and a button to take the seat.
  async function askName() {
    let inviter = null;
    try {
      const v = await api('GET', '/api/games/' + id);
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

  (async () => {
    // The server says which seat is ours: the token we hold, else the seat cookie (a reload in
    // a browser that kept no storage), else the free side of a friend game, else none (watch).
    // It also sets the seat cookie, so a private link opened once keeps working on that device.
    try {
      // An invited visitor says who they are first (asked once: the browser remembers it).
      if (invite && !token && !playerName.get()) await askName();
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

// ---------------------------------------------------------------- analysis

function analysisPage() {
  setTitle(t('analysis.title'));
  let main = null; // the record as loaded
  let variation = null; // { from: ply where it leaves the record, data } while one is tried
  let index = 0;
  let evalSeq = 0;
  const text = h('textarea', { id: 'analysis-text', 'aria-label': t('home.open') }, sessionStorage.getItem('oware.analyse') || '');
  const rules = rulesSelect();
  rules.value = sessionStorage.getItem('oware.analyseRules') || 'abapa';
  const startPly = sessionStorage.getItem('oware.analysePly');
  sessionStorage.removeItem('oware.analysePly');
  const error = h('div', { class: 'error', id: 'analysis-error', role: 'alert' });
  const boardWrap = h('div', { class: 'board-wrap' });
  const board = new Board(boardWrap, { onPick: (letter) => tryMove(letter) });
  const info = h('div', { class: 'status', id: 'analysis-status', 'aria-live': 'polite' });
  const plyClick = (e) => { const p = e.target.dataset && e.target.dataset.ply; if (p) go(Number(p), e.currentTarget === varMoves); };
  const moves = h('div', { class: 'moves', id: 'analysis-moves', onclick: plyClick });
  const varMoves = h('div', { class: 'moves variation', id: 'variation-moves', onclick: plyClick });
  const varBox = h('div', { class: 'variation-box', id: 'variation', hidden: true },
    h('div', { class: 'row' }, h('strong', {}, t('analysis.variation')),
      h('button', { class: 'secondary', id: 'back-to-record', onclick: () => { const at = variation ? variation.from : index; variation = null; go(at); } }, t('analysis.backToRecord'))),
    varMoves);
  const evalBox = h('div', { id: 'evaluation' });
  // The coach: the words beside every legal move, and a review of the loaded game.
  const reviewBox = h('div', { id: 'coach-review-box' });
  let reviewGraph = null;
  let reviewFor = sessionStorage.getItem('oware.review');
  sessionStorage.removeItem('oware.review');
  const btn = (label, fn) => h('button', { class: 'secondary', onclick: fn }, label);
  fill(app,
    h('h1', {}, t('analysis.title')),
    text, h('div', { class: 'row' }, rules, h('button', { id: 'analysis-load', onclick: () => load(text.value) }, t('analysis.load')),
      h('button', { class: 'secondary', id: 'coach-review-button', onclick: () => reviewGame(null) }, Coach.text('coach.review'))), error,
    boardWrap, info,
    h('div', { class: 'row' }, btn('|◀ ' + t('analysis.start'), () => go(0)), btn('◀ ' + t('analysis.prev'), () => go(index - 1)),
      btn(t('analysis.next') + ' ▶', () => go(index + 1)), btn(t('analysis.end') + ' ▶|', () => go(line() ? line().moves.length : 0)),
      btn(t('copyPos'), () => line() && copy(line().positions[index])),
      h('button', { class: 'secondary', id: 'analysis-flip', onclick: () => {
        board.setBottom(board.bottom === 'S' ? 'N' : 'S');
      } }, t('flip'))),
    moves, varBox, h('p', { class: 'hint' }, t('analysis.clickHint')), evalBox, reviewBox);

  // The line the board follows: the variation being tried, else the record.
  function line() { return variation ? variation.data : main; }

  function clear(message) {
    main = null;
    variation = null;
    index = 0;
    error.textContent = message;
    fill(boardWrap.querySelector('svg'));
    boardWrap.hidden = true;
    info.textContent = '';
    fill(moves);
    varBox.hidden = true;
    fill(evalBox);
    delete evalBox.dataset.for;
  }

  async function load(input, at) {
    error.textContent = '';
    let data;
    try {
      data = await api('POST', '/api/analyse', { text: input || '', rules: rules.value });
    } catch (e) {
      clear(errorText(e));
      error.title = e.message;
      return;
    }
    main = data;
    variation = null;
    if (data.error) {
      error.textContent = t('err.illegal-in-record', { n: moveLabel(data.start, data.error_ply || data.moves.length + 1) });
      error.title = data.error;
    }
    go(at === undefined ? data.moves.length : at);
  }

  function go(i, inVariation) {
    if (inVariation === false) variation = null;
    const data = line();
    if (!data) return;
    index = Math.max(0, Math.min(i, data.moves.length));
    boardWrap.hidden = false;
    const pos = parsePosition(data.positions[index]);
    const over = index === data.moves.length && data.end;
    const last = index > 0 ? LETTERS.indexOf(data.moves[index - 1]) : undefined;
    board.draw(pos, { legal: over ? '' : legalOf(pos), last, turn: over ? undefined : pos.side });
    info.textContent = over ? t('analysis.over', { score: data.end.score.replace('-', '–'), reason: t('reason.' + data.end.reason) })
      : t('toMove', { side: sideName(pos.side) }) + ' — ' + data.positions[index];
    fill(moves, notation(main.start, main.moves, variation ? -1 : index));
    varBox.hidden = !variation;
    if (variation) {
      // The variation's moves keep their plies in the whole line, so a click lands on them.
      fill(varMoves, notation(variation.data.start, variation.data.moves, index, variation.from));
      varMoves.dataset.moves = variation.data.moves.slice(variation.from);
    }
    if (reviewGraph) reviewGraph.marker(variation ? null : index);
    evaluate(data, data.positions[index], over);
  }

  // Houses worth offering a click on: the mover's non-empty houses (the server says if a move
  // is illegal, and the evaluation lists exactly the legal ones).
  function legalOf(pos) {
    const first = pos.side === 'S' ? 0 : 6;
    let s = '';
    for (let i = first; i < first + 6; i++) if (pos.houses[i] > 0) s += LETTERS[i];
    return s;
  }

  // A move tried at the shown position: the next move of the line is simply followed; another
  // one starts (or changes) a variation, and the record stays as it was.
  async function tryMove(letter) {
    const data = line();
    if (!data) return;
    if (data.moves[index] === letter) { go(index + 1); return; }
    const pos = parsePosition(data.positions[index]);
    const i = LETTERS.indexOf(letter);
    if ((i < 6 ? 'S' : 'N') !== pos.side) { toast(t('err.not-your-house')); return; }
    if (pos.houses[i] === 0) { toast(t('err.empty-house')); return; }
    let next;
    try {
      next = await api('POST', '/api/analyse', { text: data.start + ' ' + data.moves.slice(0, index) + letter, rules: data.rules });
    } catch (e) { toast(errorText(e)); return; }
    if (next.error) { toast(t('err.must-feed')); return; }
    // Past the record's end a move simply continues it.
    if (!variation && index === main.moves.length) { main = next; go(index + 1); return; }
    const from = variation ? Math.min(variation.from, index) : index;
    variation = { from, data: next };
    go(index + 1);
  }

  // A value as a player reads it: seeds for the side to move, or a forced result in the words
  // the coach uses ("South wins in 7 moves (13 plies)", "South wins (endgame database)").
  function valueText(m, side) {
    if (m.end_in) return Coach.forced(m.end_in, side);
    if (m.wins_by_database != null) return Coach.proven(m.wins_by_database, side);
    // Rounded to tenths first: a value that rounds to nothing reads 0.0, not -0.0. Decimal
    // comma or point as the page's language writes numbers.
    return signed(m.score, '+');
  }

  // Seeds with one decimal, `plus` before a positive value.
  function signed(seeds, plus) {
    const tenths = Math.round(seeds * 10);
    const sign = tenths > 0 ? plus : tenths < 0 ? '-' : '';
    const digits = new Intl.NumberFormat(document.documentElement.lang || undefined, {
      minimumFractionDigits: 1, maximumFractionDigits: 1,
    }).format(Math.abs(tenths) / 10);
    return sign + digits;
  }

  async function evaluate(data, position, over) {
    const seq = ++evalSeq;
    const at = index;
    delete evalBox.dataset.for;
    fill(evalBox, over ? null : h('p', { class: 'hint' }, t('analysis.thinking')));
    if (over) return;
    let r;
    // The moves that led here go along, so the engine sees repetitions.
    const body = { position: data.start, moves: data.moves.slice(0, at), rules: data.rules };
    try { r = await Coach.patient(() => api('POST', '/api/evaluate', body)); } catch (e) {
      if (seq === evalSeq) fill(evalBox, h('p', { class: 'error' }, errorText(e)));
      return;
    }
    if (seq !== evalSeq) return;
    // The database column shows only when the server has endgame databases covering a move.
    const withDb = r.moves.some((m) => m.database !== null && m.database !== undefined);
    const side = parsePosition(position).side;
    const rows = r.moves.map((m, i) => h('tr', { class: i === 0 ? 'best' : '' },
      h('td', {}, h('a', { href: '#', onclick: (e) => { e.preventDefault(); tryMove(m.move); } }, m.move)),
      h('td', { class: 'value' }, valueText(m, side)),
      h('td', { class: 'value loss' }, i === 0 ? '' : signed(-m.loss, '')),
      withDb ? h('td', { class: 'value' }, dbText(data, m.database)) : null,
      h('td', { class: 'line' }, lineText(m.line))));
    fill(evalBox, h('table', { class: 'eval' },
      h('tr', {}, h('th', {}, t('analysis.move')), h('th', {}, t('analysis.score')), h('th', {}, t('analysis.loss')),
        withDb ? h('th', {}, t('analysis.database')) : null, h('th', {}, t('analysis.line'))), ...rows),
    h('p', { class: 'hint' }, t('analysis.depth', { d: r.depth })),
    withDb ? h('p', { class: 'hint' }, t(data.rules === 'awari' ? 'analysis.dbAwari' : 'analysis.dbAbapa',
      { n: r.moves.find((m) => m.database).database.seeds })) : null);
    evalBox.dataset.for = position;
    explainMoves(body, seq);
  }

  // The coach's words on each legal move, under the table (a column would not fit a phone), and
  // the feeding rule when it forbids a move.
  async function explainMoves(body, seq) {
    let r;
    try { r = await Coach.explain(body.position, body.moves, body.rules); } catch (e) {
      if (seq === evalSeq) evalBox.append(h('p', { class: 'error', id: 'coach-error' }, errorText(e)));
      return;
    }
    if (seq !== evalSeq) return;
    evalBox.append(h('h2', {}, Coach.text('coach.why')), Coach.explanationList(r));
    if (r.rule) evalBox.append(h('p', { class: 'hint coach-rule' }, r.rule));
    evalBox.dataset.coached = body.position + ' ' + body.moves;
  }

  // The loaded game's mistakes (of `player`, or of both), each shown on the board on request.
  async function reviewGame(player) {
    if (!main) return;
    fill(reviewBox, h('p', { class: 'hint' }, Coach.text('coach.thinking')));
    let r;
    try { r = await Coach.review(main.start, main.moves, main.rules, player || undefined); } catch (e) {
      fill(reviewBox, h('p', { class: 'error', id: 'coach-error' }, errorText(e)));
      return;
    }
    const shown = Coach.reviewList(r, (ply) => { variation = null; go(ply); }, playLine);
    reviewGraph = shown.graph || null;
    fill(reviewBox, shown);
    if (reviewGraph) reviewGraph.marker(variation ? null : index);
  }

  // A turning point's line played out on the board: the position before the mistake, then the
  // mistake and the engine's line after it as a variation to step through.
  async function playLine(m) {
    if (!main || !m.line) return;
    let data;
    try {
      data = await api('POST', '/api/analyse', { text: main.start + ' ' + main.moves.slice(0, m.ply) + m.line.replace(/ /g, ''), rules: main.rules });
    } catch (e) { toast(errorText(e)); return; }
    variation = { from: m.ply, data };
    go(m.ply);
  }

  // A database value in the rule set's units: awari, the final seed difference over the board
  // ("+4"); abapa, the seeds of the board the mover ends with ("5/8"); "≥" marks a lower bound.
  function dbText(data, d) {
    if (!d) return '—';
    const bound = d.exact ? '' : '≥ ';
    if (data.rules === 'awari') return bound + (d.value > 0 ? '+' : '') + d.value;
    return bound + d.value + '/' + d.seeds;
  }

  // "F e D": the line's letters with spaces, so it reads as moves.
  function lineText(l) { return l.split('').join(' '); }

  document.addEventListener('keydown', (e) => {
    if (e.target === text || (e.target.closest && e.target.closest('select, input'))) return;
    if (e.key === 'ArrowLeft') go(index - 1);
    if (e.key === 'ArrowRight') go(index + 1);
  });
  load(text.value, startPly ? Number(startPly) : undefined).then(() => {
    if (reviewFor !== null) reviewGame(reviewFor);
  });
}

// ---------------------------------------------------------------- rules

function rulesPage() {
  const r = RULES[getLanguage()] || RULES.en;
  setTitle(r.title);
  const out = [h('h1', {}, typeset(r.title))];
  for (const s of r.sections) {
    out.push(h('h2', {}, typeset(s.h)));
    for (const p of s.p) out.push(h('p', {}, typeset(p)));
    if (s.d) {
      const fig = h('figure', { class: 'diagram' });
      const b = new Board(fig, {});
      b.draw(parsePosition(s.d[0]), { last: s.d[1] >= 0 ? s.d[1] : undefined });
      fig.append(h('figcaption', {}, typeset(s.d[2])));
      out.push(fig);
    }
  }
  fill(app, h('div', { class: 'rules-text' }, ...out));
}

// ---------------------------------------------------------------- not found

function notFoundPage() {
  setTitle(t('notFound.title'));
  document.body.dataset.page = 'not-found';
  fill(app, h('section', { class: 'not-found', id: 'not-found' },
    h('h1', {}, t('notFound.title')),
    h('p', {}, t('notFound.text')),
    h('div', { class: 'row' }, h('a', { class: 'button', href: '/' }, t('notFound.home')),
      h('a', { class: 'button secondary', href: '/rules' }, t('nav.rules')))));
}

// ---------------------------------------------------------------- start

// The colour scheme: the system's, unless the player picked light or dark (remembered).
function applyTheme() {
  const theme = saved.get('oware.theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

function translateChrome() {
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

function route() {
  applyTheme();
  translateChrome();
  const path = location.pathname;
  const game = path.match(/^\/game\/([0-9a-f]{32})$/);
  if (game) gamePage(game[1]);
  else if (path === '/analysis') analysisPage();
  else if (path === '/rules') rulesPage();
  else if (path === '/puzzles') puzzlePage();
  else if (path === '/' || path === '/index.html') homePage();
  else notFoundPage();
}

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

// The colour scheme at once, not after the coach's catalogue has loaded: no flash of the wrong
// scheme, and a reloaded page shows the remembered one from its first paint.
applyTheme();
// The coach's words are loaded first: the pages use them as they are drawn.
Coach.load().catch(() => null).then(route);
