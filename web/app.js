// The pages: home, game, analysis, rules. Each page load draws the page its path names. The
// server referees everything: this script sends requests and draws what comes back.
'use strict';

const app = document.getElementById('app');

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c);
  return el;
}

function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove('show'), 2500);
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error((data.error && data.error.message) || res.statusText);
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

// "1. F f 2. E a": the moves numbered by pairs, South's first.
function notation(start, moves, current) {
  const first = start.slice(-1);
  const out = [];
  for (let i = 0; i < moves.length; i++) {
    const index = i + (first === 'N' ? 1 : 0);
    const south = 'ABCDEF'.includes(moves[i]);
    if (south) out.push({ num: Math.floor(index / 2) + 1 + '.' });
    else if (i === 0) out.push({ num: Math.floor(index / 2) + 1 + '...' });
    out.push({ ply: i, mv: moves[i] });
  }
  return out.map((x) => x.num ? h('span', {}, x.num + ' ')
    : h('span', { class: 'ply' + (x.ply + 1 === current ? ' current' : ''), 'data-ply': x.ply + 1 }, x.mv + ' '));
}

function endText(end, you) {
  const score = end.score + ' — ' + t('reason.' + end.reason);
  if (!end.winner) return t('drawn', { score });
  if (you) return t(end.winner === you ? 'won' : 'lost', { score });
  return t('winnerIs', { side: sideName(end.winner), score });
}

// ---------------------------------------------------------------- home

function levelSelect() {
  const s = h('select', { name: 'level' });
  for (let i = 1; i <= 10; i++) s.append(h('option', { value: i, selected: i === 3 }, String(i)));
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

async function startGame(form, mode) {
  const body = { mode, side: form.side.value, rules: form.rules.value };
  if (mode === 'computer') body.level = Number(form.level.value);
  if (mode === 'friend') body.clock = Number(form.clock.value);
  try {
    const g = await api('POST', '/api/games', body);
    saved.set('oware.token.' + g.id, g.token);
    location.href = '/game/' + g.id;
  } catch (e) { toast(e.message); }
}

function homePage() {
  const computer = h('form', { class: 'card', id: 'computer-form', onsubmit: (e) => { e.preventDefault(); startGame(computer, 'computer'); } },
    h('h2', {}, t('home.computer')),
    h('label', {}, t('level') + ' ', levelSelect()),
    h('label', {}, t('side') + ' ', sideSelect(true)),
    h('label', {}, t('ruleset') + ' ', rulesSelect()),
    h('button', { type: 'submit', id: 'play-computer' }, t('play')));
  const friend = h('form', { class: 'card', id: 'friend-form', onsubmit: (e) => { e.preventDefault(); startGame(friend, 'friend'); } },
    h('h2', {}, t('home.friend')),
    h('p', {}, t('home.friendHint')),
    h('label', {}, t('side') + ' ', sideSelect(true)),
    h('label', {}, t('ruleset') + ' ', rulesSelect()),
    h('label', {}, t('clock') + ' ', h('select', { name: 'clock' },
      h('option', { value: '0' }, t('clock.none')),
      ...[5, 10, 20].map((n) => h('option', { value: String(n) }, t('clock.minutes', { n }))))),
    h('button', { type: 'submit', id: 'play-friend' }, t('createLink')));
  const open = h('form', { class: 'card', onsubmit: (e) => {
    e.preventDefault();
    sessionStorage.setItem('oware.analyse', open.text.value);
    location.href = '/analysis';
  } },
    h('h2', {}, t('home.open')),
    h('p', {}, t('home.openHint')),
    h('textarea', { name: 'text', placeholder: '1. F f 2. E a' }),
    h('button', { type: 'submit' }, t('open')));
  app.replaceChildren(h('div', { class: 'cards' }, computer, friend, open));
}

// ---------------------------------------------------------------- game

function gamePage(id) {
  const params = new URLSearchParams(location.search);
  const tokenKey = 'oware.token.' + id;
  // A token in the link (?t=) lets a player continue on another device.
  if (params.get('t')) {
    saved.set(tokenKey, params.get('t'));
    history.replaceState(null, '', '/game/' + id);
  }
  let token = saved.get(tokenKey);
  let you = null;
  let view = null;
  let shown = null; // the state the board shows (animations run from it to the newest)
  let queue = Promise.resolve();
  let socket = null;
  let retry = 500;

  const status = h('div', { class: 'status', id: 'status' }, t('connecting'));
  const players = h('div', { class: 'players' });
  const boardWrap = h('div', { class: 'board-wrap' });
  const board = new Board(boardWrap, { onPick: (letter) => send({ type: 'move', move: letter, ply: view.moves.length }) });
  const share = h('div', { class: 'share', hidden: true });
  const moves = h('div', { class: 'moves', id: 'moves' });
  const undo = h('button', { class: 'secondary', id: 'undo', hidden: true, onclick: () => send({ type: 'undo' }) }, t('undo'));
  const download = h('a', { class: 'button secondary', id: 'download', href: '/api/games/' + id + '/record' }, t('download'));
  const copyPos = h('button', { class: 'secondary', id: 'copy-position', onclick: () => view && copy(view.position) }, t('copyPos'));
  const analyse = h('button', { class: 'secondary', onclick: () => {
    if (!view) return;
    sessionStorage.setItem('oware.analyse', view.start + ' ' + view.moves);
    sessionStorage.setItem('oware.analyseRules', view.rules);
    location.href = '/analysis';
  } }, t('analyseThis'));
  const hint = h('p', { class: 'hint' });
  // A player's private link to continue on another device: it carries the seat's token.
  const resume = h('details', { class: 'resume', id: 'resume', hidden: true });
  app.replaceChildren(players, boardWrap, status, share, h('div', { class: 'row' }, undo, download, copyPos, analyse), h('h2', {}, t('moves')), moves, hint, resume);

  function send(msg) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
  }

  function myTurn(v) {
    return you && !v.end && v.to_move === you && !v.thinking;
  }

  function marks(v) {
    const last = v.moves.length ? LETTERS.indexOf(v.moves[v.moves.length - 1]) : undefined;
    return { legal: myTurn(v) ? v.legal : '', last };
  }

  let clockState = null;
  function tickClocks() {
    if (!clockState) return;
    for (const el of players.querySelectorAll('.clock')) {
      const side = el.dataset.side;
      let ms = clockState.remaining_ms[side === 'S' ? 0 : 1];
      if (clockState.running === side) ms = Math.max(0, ms - (performance.now() - clockState.at));
      const secs = Math.ceil(ms / 1000);
      el.textContent = ' ' + Math.floor(secs / 60) + ':' + String(secs % 60).padStart(2, '0');
      el.classList.toggle('running', clockState.running === side);
      el.classList.toggle('low', ms < 30000);
    }
  }
  setInterval(tickClocks, 200);

  function describe(v) {
    status.classList.toggle('over', !!v.end);
    if (v.end) return endText(v.end, you);
    if (!you) return t('watching') + ' ' + t('toMove', { side: sideName(v.to_move) });
    if (v.thinking) return t('thinking');
    return v.to_move === you ? t('yourTurn') : t('theirTurn');
  }

  function seatName(side, v) {
    if (v.computer === side) return t('computer', { n: v.level });
    if (you === side) return t('you');
    return v.seated[side === 'S' ? 0 : 1] ? t('friend') : t('waiting');
  }

  function drawPanel(v) {
    status.textContent = describe(v);
    const top = you === 'N' ? 'S' : 'N';
    const bottom = top === 'S' ? 'N' : 'S';
    const clockOf = (side) => v.clock ? h('span', { class: 'clock', 'data-side': side }) : null;
    players.replaceChildren(h('span', {}, sideName(top) + ': ' + seatName(top, v), clockOf(top)),
      h('span', {}, sideName(bottom) + ': ' + seatName(bottom, v), clockOf(bottom)));
    // The server sends the time left when it sent the state; the page counts the running clock
    // down from the moment the state arrived.
    clockState = v.clock ? { ...v.clock, at: performance.now() } : null;
    tickClocks();
    moves.replaceChildren(...notation(v.start, v.moves, v.moves.length));
    moves.scrollTop = moves.scrollHeight;
    undo.hidden = !(v.mode === 'computer' && you);
    undo.disabled = !!v.thinking || !v.moves.split('').some((m) => (you === 'S') === 'ABCDEF'.includes(m));
    const open = v.mode === 'friend' && you && !(v.seated[0] && v.seated[1]);
    share.hidden = !open;
    if (open) {
      const url = location.origin + '/game/' + id;
      share.replaceChildren(h('div', {}, t('share')), h('div', { class: 'row' },
        h('input', { value: url, readonly: true, id: 'share-link', onfocus: (e) => e.target.select() }),
        h('button', { onclick: () => copy(url) }, t('copyLink'))));
    }
    resume.hidden = !(you && token);
    if (you && token && !resume.dataset.token) {
      resume.dataset.token = token;
      const url = location.origin + '/game/' + id + '?t=' + token;
      resume.replaceChildren(h('summary', {}, t('resume.title')), h('p', {}, t('resume.hint')),
        h('div', { class: 'row' },
          h('input', { value: url, readonly: true, id: 'resume-link', onfocus: (e) => e.target.select() }),
          h('button', { class: 'secondary', onclick: () => copy(url) }, t('copyLink'))));
    }
    const keys = you === 'N' ? 'a–f' : 'A–F';
    hint.textContent = you ? t('keysHint', { keys }) : '';
    document.body.dataset.ply = v.moves.length;
    document.body.dataset.over = v.end ? '1' : '0';
  }

  // Shows a new state: moves added since the board's state are animated one by one.
  function show(v) {
    queue = queue.then(async () => {
      const old = shown;
      const grew = old && v.moves.length > old.moves.length && v.moves.startsWith(old.moves) && v.moves.length - old.moves.length <= 2;
      if (grew && !document.hidden) {
        // The positions in between come from the server too: replay them from the start is not
        // needed, since each animation ends on a position the server sent (the last one), and a
        // middle position, if any, is recomputed by the server through /api/analyse.
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
          await board.animate(before, added[i], after, last ? marks(v) : { last: LETTERS.indexOf(added[i]) });
          before = after;
        }
      }
      shown = v;
      board.draw(parsePosition(v.position), marks(v));
      drawPanel(v);
    });
  }

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    // The game's own folder: the seat cookie goes along, so a player is recognised even when
    // this page knows no token.
    socket = new WebSocket(proto + '//' + location.host + '/api/games/' + id + '/ws' + (token ? '?token=' + encodeURIComponent(token) : ''));
    socket.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === 'welcome') {
        you = msg.you;
        board.setBottom(you || 'S');
      } else if (msg.type === 'state') {
        retry = 500;
        view = msg.game;
        show(view);
      } else if (msg.type === 'error') {
        toast(t('err.' + msg.code) !== 'err.' + msg.code ? t('err.' + msg.code) : msg.message);
      }
    };
    socket.onclose = () => {
      status.textContent = t('connecting');
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  document.addEventListener('keydown', (e) => {
    if (!view || !you || e.ctrlKey || e.metaKey || e.altKey) return;
    const i = 'abcdef'.indexOf(e.key.toLowerCase());
    if (i < 0) return;
    const letter = you === 'S' ? 'ABCDEF'[i] : 'abcdef'[i];
    if (myTurn(view) && view.legal.includes(letter)) send({ type: 'move', move: letter, ply: view.moves.length });
  });

  (async () => {
    // The server says which seat is ours: the token we hold, else the seat cookie (a reload in
    // a browser that kept no storage), else the free side of a friend game, else none (watch).
    // It also sets the seat cookie, so a private link opened once keeps working on that device.
    try {
      const seat = await api('POST', '/api/games/' + id + '/join', token ? { token } : undefined);
      if (seat.token) { token = seat.token; saved.set(tokenKey, token); }
    } catch (e) {
      status.textContent = e.message;
      return;
    }
    connect();
  })();
}

// ---------------------------------------------------------------- analysis

function analysisPage() {
  let data = null;
  let index = 0;
  let evalSeq = 0;
  const text = h('textarea', { id: 'analysis-text' }, sessionStorage.getItem('oware.analyse') || '');
  const rules = rulesSelect();
  rules.value = sessionStorage.getItem('oware.analyseRules') || 'abapa';
  const error = h('div', { class: 'error', id: 'analysis-error' });
  const boardWrap = h('div', { class: 'board-wrap' });
  const board = new Board(boardWrap, { onPick: (letter) => tryMove(letter) });
  const info = h('div', { class: 'status', id: 'analysis-status' });
  const moves = h('div', { class: 'moves', onclick: (e) => { const p = e.target.dataset.ply; if (p) go(Number(p)); } });
  const evalBox = h('div', { id: 'evaluation' });
  const btn = (label, fn) => h('button', { class: 'secondary', onclick: fn }, label);
  app.replaceChildren(
    h('h1', {}, t('analysis.title')),
    text, h('div', { class: 'row' }, rules, h('button', { id: 'analysis-load', onclick: () => load(text.value) }, t('analysis.load'))), error,
    boardWrap, info,
    h('div', { class: 'row' }, btn('|◀ ' + t('analysis.start'), () => go(0)), btn('◀ ' + t('analysis.prev'), () => go(index - 1)),
      btn(t('analysis.next') + ' ▶', () => go(index + 1)), btn(t('analysis.end') + ' ▶|', () => go(data ? data.moves.length : 0)),
      btn(t('copyPos'), () => data && copy(data.positions[index]))),
    moves, h('p', {}, t('analysis.clickHint')), evalBox);

  async function load(input, at) {
    error.textContent = '';
    try {
      data = await api('POST', '/api/analyse', { text: input || '', rules: rules.value });
    } catch (e) { error.textContent = e.message; return; }
    if (data.error) error.textContent = data.error;
    go(at === undefined ? data.moves.length : at);
  }

  function go(i) {
    if (!data) return;
    index = Math.max(0, Math.min(i, data.moves.length));
    const pos = parsePosition(data.positions[index]);
    const over = index === data.moves.length && data.end;
    const last = index > 0 ? LETTERS.indexOf(data.moves[index - 1]) : undefined;
    board.draw(pos, { legal: over ? '' : legalOf(pos), last });
    info.textContent = over ? t('analysis.over', { score: data.end.score, reason: t('reason.' + data.end.reason) })
      : t('toMove', { side: sideName(pos.side) }) + ' — ' + data.positions[index];
    moves.replaceChildren(...notation(data.start, data.moves, index));
    evaluate(data.positions[index], over);
  }

  // Houses worth offering a click on: the mover's non-empty houses (the server says if a move
  // is illegal, and the evaluation lists exactly the legal ones).
  function legalOf(pos) {
    const first = pos.side === 'S' ? 0 : 6;
    let s = '';
    for (let i = first; i < first + 6; i++) if (pos.houses[i] > 0) s += LETTERS[i];
    return s;
  }

  function tryMove(letter) {
    const line = data.start + ' ' + data.moves.slice(0, index) + letter;
    load(line, index + 1);
  }

  // A value as a player reads it: seeds for the side to move, or a forced win or loss.
  function valueText(m) {
    if (m.end_in > 0) return t('analysis.winIn', { n: m.end_in });
    if (m.end_in < 0) return t('analysis.lossIn', { n: -m.end_in });
    return (m.score > 0 ? '+' : '') + m.score.toFixed(1);
  }

  async function evaluate(position, over) {
    const seq = ++evalSeq;
    const at = index;
    delete evalBox.dataset.for;
    evalBox.replaceChildren(over ? '' : h('p', { class: 'hint' }, t('analysis.thinking')));
    if (over) return;
    let r;
    // The moves that led here go along, so the engine sees repetitions.
    const body = { position: data.start, moves: data.moves.slice(0, at), rules: data.rules };
    try { r = await api('POST', '/api/evaluate', body); } catch (e) {
      if (seq === evalSeq) evalBox.replaceChildren(h('p', { class: 'error' }, e.message));
      return;
    }
    if (seq !== evalSeq) return;
    // The database column shows only when the server has endgame databases covering a move.
    const withDb = r.moves.some((m) => m.database !== null && m.database !== undefined);
    const rows = r.moves.map((m, i) => h('tr', { class: i === 0 ? 'best' : '' },
      h('td', {}, h('a', { href: '#', onclick: (e) => { e.preventDefault(); tryMove(m.move); } }, m.move)),
      h('td', { class: 'value' }, valueText(m)),
      withDb ? h('td', { class: 'value' }, dbText(m.database)) : null,
      h('td', { class: 'line' }, lineText(m.line))));
    evalBox.replaceChildren(h('table', { class: 'eval' },
      h('tr', {}, h('th', {}, t('analysis.move')), h('th', {}, t('analysis.score')),
        withDb ? h('th', {}, t('analysis.database')) : null, h('th', {}, t('analysis.line'))), ...rows),
      h('p', { class: 'hint' }, t('analysis.depth', { d: r.depth })),
      withDb ? h('p', { class: 'hint' }, t(data.rules === 'awari' ? 'analysis.dbAwari' : 'analysis.dbAbapa',
        { n: r.moves.find((m) => m.database).database.seeds })) : null);
    evalBox.dataset.for = position;
  }

  // A database value in the rule set's units: awari, the final seed difference over the board
  // ("+4"); abapa, the seeds of the board the mover ends with ("5/8"); "≥" marks a lower bound.
  function dbText(d) {
    if (!d) return '—';
    const bound = d.exact ? '' : '≥ ';
    if (data.rules === 'awari') return bound + (d.value > 0 ? '+' : '') + d.value;
    return bound + d.value + '/' + d.seeds;
  }

  // "F e D": the line's letters with spaces, so it reads as moves.
  function lineText(line) { return line.split('').join(' '); }

  document.addEventListener('keydown', (e) => {
    if (e.target === text) return;
    if (e.key === 'ArrowLeft') go(index - 1);
    if (e.key === 'ArrowRight') go(index + 1);
  });
  load(text.value);
}

// ---------------------------------------------------------------- rules

function rulesPage() {
  const r = RULES[getLanguage()] || RULES.en;
  const out = [h('h1', {}, r.title)];
  for (const s of r.sections) {
    out.push(h('h2', {}, s.h));
    for (const p of s.p) out.push(h('p', {}, p));
    if (s.d) {
      const fig = h('figure', { class: 'diagram' });
      const b = new Board(fig, {});
      b.draw(parsePosition(s.d[0]), { last: s.d[1] >= 0 ? s.d[1] : undefined });
      fig.append(h('figcaption', {}, s.d[2]));
      out.push(fig);
    }
  }
  app.replaceChildren(h('div', { class: 'rules-text' }, ...out));
}

// ---------------------------------------------------------------- start

function translateChrome() {
  document.documentElement.lang = getLanguage();
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
  const sel = document.getElementById('lang');
  sel.value = getLanguage();
}

function route() {
  translateChrome();
  const path = location.pathname;
  const game = path.match(/^\/game\/([0-9a-f]{32})$/);
  if (game) gamePage(game[1]);
  else if (path === '/analysis') analysisPage();
  else if (path === '/rules') rulesPage();
  else homePage();
}

document.getElementById('lang').addEventListener('change', (e) => {
  setLanguage(e.target.value);
  // Simplest faithful way to redraw every text: load the page again (games resume by token).
  location.reload();
});

route();
