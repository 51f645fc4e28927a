// The home page: play the computer or invite a friend at once or with chosen settings (level,
// side, rules, clock, a set-up position), open a record to analyse, and "My games".
import { app, h, fill, toast, saved, setTitle } from '../lib/dom.js';
import { t, tNodes, sideName, nameNode } from '../lib/i18n.js';
import { api, errorText } from '../lib/api.js';
import { Board, parsePosition, LETTERS } from '../lib/board.js';
import { myGames, playerName, nameInput } from '../lib/players.js';
import { endText } from '../lib/notation.js';
import { rulesSelect } from '../lib/widgets.js';

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

export function homePage() {
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
