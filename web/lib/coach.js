// The coach: its words come from coach-messages.json, the catalogue the terminal's coach uses too;
// the server explains every legal move (POST /api/coach/explain) and reviews a game
// (POST /api/coach/review) in the language asked for. This module draws what they answer.
import { h } from './dom.js';
import { getLanguage, typeset } from './i18n.js';

let catalogue = null;

// Loads the catalogue once; the coach's pieces wait for it.
export async function load() {
  if (!catalogue) {
    const r = await fetch('/static/coach-messages.json');
    if (!r.ok) throw new Error('coach-messages.json: ' + r.status);
    catalogue = await r.json();
  }
  return catalogue;
}

export function text(key, vars) {
  const lang = getLanguage();
  let s = (catalogue && ((catalogue[lang] && catalogue[lang][key]) || (catalogue.en && catalogue.en[key]))) || key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split('{' + k + '}').join(String(v));
  return typeset(s);
}

// Tries of a request the server answers "busy" (every engine taken) or "too many" (this
// address's analyses all running or waiting), with pauses that double from half a second.
const RETRIES = 5;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// `attempt()` (a request) until it is not refused as busy: 503 `busy` (every engine taken) or
// 429 (this address's analyses all running or waiting), with pauses that double from half a
// second; other refusals and the last busy one are thrown.
export async function patient(attempt) {
  let pause = 500;
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (e) {
      const busy = (e.status === 503 && e.code === 'busy') || e.status === 429;
      if (!busy || tries >= RETRIES) throw e;
      await sleep(Math.max(pause, e.retryAfter || 0));
      pause *= 2;
    }
  }
}

// A coach request. A refusal becomes an Error with the server's code (`bad-position`, `busy`…)
// for the page's words in the reader's language; a busy engine is asked again a little later.
async function post(path, body) {
  await load();
  return patient(async () => {
    const r = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.assign({ lang: getLanguage() }, body)),
    });
    const data = await r.json().catch(() => ({}));
    if (r.ok) return data;
    const e = new Error((data.error && data.error.message) || ('HTTP ' + r.status));
    e.code = (data.error && data.error.code) || 'http-' + r.status;
    e.status = r.status;
    e.retryAfter = 1000 * Number(r.headers.get('retry-after') || 0);
    throw e;
  });
}

// A count with its noun, singular or plural as the language says (`moves`, `plies`, `seeds`).
export function count(noun, n) {
  const one = n === 1 || (getLanguage() === 'fr' && n === 0);
  return text(noun + (one ? '.one' : '.other'), { n });
}

// A forced result as every view says it: "South wins in 7 moves (13 plies)", a move being one
// player's sowing as the move list numbers them. `endIn`: plies to the end, positive when
// `side` (the side to move) wins.
export function forced(endIn, side) {
  const plies = Math.abs(endIn);
  const winner = endIn > 0 ? side : (side === 'S' ? 'N' : 'S');
  return text('score.wins', { side: text('side.' + winner), moves: count('moves', Math.ceil(plies / 2)), plies: count('plies', plies) });
}

// A result the endgame databases proved, at a distance nobody counted: "South wins (endgame
// database)". `wins`: whether `side` (the side to move) wins.
export function proven(wins, side) {
  const winner = wins ? side : (side === 'S' ? 'N' : 'S');
  return text('score.winsByDatabase', { side: text('side.' + winner) });
}

// Every legal move of the position reached by `moves` from `position`, explained, best first;
// with the threats on the board and the feeding rule's note.
export function explain(position, moves, rules) {
  return post('/api/coach/explain', { position, moves: moves || '', rules });
}

// The mistakes of `player` ('S', 'N', or both when absent) in a game.
export function review(position, moves, rules, player) {
  return post('/api/coach/review', { position, moves: moves || '', rules, player });
}

// A list of every move with its explanation.
export function explanationList(answer) {
  const list = h('ul', { class: 'coach-moves', id: 'coach-moves' });
  for (const m of answer.moves || []) {
    // Most sentences begin with the move ("F sows 3 seeds…"): the letter is set in bold there,
    // not written twice.
    const rest = m.text.startsWith(m.move + ' ') ? m.text.slice(m.move.length) : ' · ' + m.text;
    list.append(h('li', { 'data-move': m.move }, h('strong', {}, m.move), rest));
  }
  return list;
}

// The threats on the board, one sentence each.
export function threatList(answer) {
  const threats = answer.threats || [];
  const box = h('div', { class: 'coach-threats', id: 'coach-threats' });
  if (!threats.length) box.append(h('p', {}, text('coach.noThreat')));
  for (const t of threats) box.append(h('p', { 'data-by': t.by }, t.text));
  if (answer.rule) box.append(h('p', { class: 'coach-rule' }, answer.rule));
  return box;
}

// The houses the side to move should watch: those the opponent could take now.
export function housesAtRisk(answer, side) {
  const houses = new Set();
  for (const t of answer.threats || []) if (t.by !== side) for (const h of t.houses) houses.add(h);
  return houses;
}

// The coach's advice for the side to move: the best move and why.
export function advice(answer) {
  const best = (answer.moves || [])[0];
  if (!best) return null;
  return h('div', { class: 'coach-advice', id: 'coach-advice' },
    h('p', {}, h('strong', {}, text('coach.advice', { move: best.move }))), h('p', {}, best.text));
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

// Seeds either way the graph shows: the game's largest advantage, from 4 to 24 (more is a game
// decided, drawn at the edge).
const graphSeeds = (values) => Math.min(24, Math.max(4, Math.ceil(Math.max(0, ...values.map((v) => Math.abs(v))) / 100)));

// The evaluation over the game: South's value of each position (centiseeds), South above the
// middle line; the turning points ringed. A click anywhere goes to the nearest position;
// `marker(ply)` moves the line that shows where the board is.
function graph(answer, onPick) {
  const values = answer.evaluation || [];
  const W = 600, H = 160, pad = 8;
  const n = Math.max(1, values.length - 1);
  const x = (i) => pad + (W - 2 * pad) * i / n;
  const scale = graphSeeds(values);
  const y = (v) => H / 2 - (H / 2 - pad) * Math.max(-scale, Math.min(scale, v / 100)) / scale;
  const box = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'review-graph', id: 'review-graph', role: 'img',
    'aria-label': text('review.graph') });
  box.append(svg('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-bg' }));
  box.append(svg('line', { x1: pad, y1: H / 2, x2: W - pad, y2: H / 2, class: 'graph-axis' }));
  if (values.length) {
    const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    box.append(svg('polygon', { points: `${x(0)},${H / 2} ${points.join(' ')} ${x(values.length - 1)},${H / 2}`, class: 'graph-area' }));
    box.append(svg('polyline', { points: points.join(' '), class: 'graph-line' }));
  }
  for (const ply of answer.turning || []) {
    const dot = svg('circle', { cx: x(ply + 1), cy: y(values[ply + 1] || 0), r: 6, class: 'graph-turning', 'data-ply': ply });
    dot.append(svg('title', {}));
    dot.firstChild.textContent = (answer.mistakes.find((m) => m.ply === ply) || {}).label || '';
    box.append(dot);
  }
  const cursor = svg('line', { x1: 0, y1: pad, x2: 0, y2: H - pad, class: 'graph-cursor', visibility: 'hidden' });
  box.append(cursor);
  box.addEventListener('click', (e) => {
    const r = box.getBoundingClientRect();
    const at = (e.clientX - r.left) / r.width * W;
    onPick(Math.max(0, Math.min(values.length - 1, Math.round((at - pad) / (W - 2 * pad) * n))));
  });
  box.marker = (ply) => {
    if (ply === null || ply === undefined || ply >= values.length) { cursor.setAttribute('visibility', 'hidden'); return; }
    cursor.setAttribute('x1', x(ply));
    cursor.setAttribute('x2', x(ply));
    cursor.setAttribute('visibility', 'visible');
  };
  return box;
}

// Seeds with one decimal as the language writes numbers.
function seeds(centi) {
  // Tenths rounded halves away from zero, as the coach's words and the analysis table round.
  const tenths = Math.sign(centi) * Math.round(Math.abs(centi) / 10);
  const n = new Intl.NumberFormat(getLanguage(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(tenths / 10);
  return text('seeds.other', { n });
}

// A game's review: the graph, each player's accuracy, the turning points (each with the line
// that punishes it, to play out on the board) and every mistake with its words. `show(ply)`
// puts the board on a position; `playLine(m)` plays the mistake's line from the position
// before it.
export function reviewList(answer, show, playLine) {
  const box = h('section', { class: 'coach-review', id: 'coach-review' }, h('h2', {}, text('coach.reviewTitle')));
  const mistakes = answer.mistakes || [];
  if ((answer.evaluation || []).length > 1) {
    const g = graph(answer, (ply) => show(ply));
    box.append(h('figure', { class: 'review-figure' }, g, h('figcaption', { class: 'hint' }, text('review.graphCaption'))));
    box.graph = g;
  }
  const accuracy = h('ul', { class: 'review-accuracy', id: 'review-accuracy' });
  for (const side of ['S', 'N']) {
    const a = answer.accuracy && answer.accuracy[side];
    if (a === null || a === undefined) continue;
    accuracy.append(h('li', { 'data-side': side }, text('review.accuracy', {
      side: text('side.' + side), percent: a, loss: seeds(answer.averageLoss[side]) })));
  }
  box.append(accuracy);
  if (!mistakes.length) box.append(h('p', {}, text('coach.noMistakes')));
  // The turning points first, each with its line behind a control; every other mistake once,
  // folded when there are turning points to read first (a phone's screen fills fast).
  const turning = mistakes.filter((m) => m.turning);
  const others = mistakes.filter((m) => !m.turning);
  if (turning.length) {
    box.append(h('h3', {}, text('review.turning')));
    const list = h('ol', { class: 'review-turning', id: 'review-turning' });
    for (const m of turning) {
      list.append(h('li', { 'data-ply': String(m.ply) }, m.text, ' ',
        h('button', { class: 'secondary', type: 'button', onclick: () => show(m.ply) }, text('coach.show')), ' ',
        h('button', { class: 'secondary play-line', type: 'button', onclick: () => playLine(m) }, text('review.playLine')),
        m.line ? h('details', { class: 'review-line' }, h('summary', {}, text('review.showLine')),
          h('span', { class: 'line' }, text('review.refutation', { line: m.line }))) : ''));
    }
    box.append(list);
  }
  if (others.length) {
    const list = h('ul', { class: 'review-others', id: 'review-others' });
    for (const m of others) {
      list.append(h('li', { 'data-ply': String(m.ply) }, m.text, ' ',
        h('button', { class: 'secondary', type: 'button', onclick: () => show(m.ply) }, text('coach.show'))));
    }
    if (turning.length) {
      box.append(h('details', { class: 'review-fold' },
        h('summary', {}, text('review.others', { n: others.length })), list));
    } else {
      box.append(h('h3', {}, text('review.all')), list);
    }
  }
  return box;
}
