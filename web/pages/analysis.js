// The analysis board: a record loaded and stepped through, variations tried beside it, the
// engine's value of every legal move with the coach's words, and a review of the game.
import { app, h, fill, toast, setTitle } from '../lib/dom.js';
import { t, sideName } from '../lib/i18n.js';
import { api, errorText } from '../lib/api.js';
import { Board, parsePosition, LETTERS } from '../lib/board.js';
import * as Coach from '../lib/coach.js';
import { moveLabel, notation } from '../lib/notation.js';
import { copy, rulesSelect } from '../lib/widgets.js';

export function analysisPage() {
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
      data = await api('POST', '/api/replay', { text: input || '', rules: rules.value });
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
      next = await api('POST', '/api/replay', { text: data.start + ' ' + data.moves.slice(0, index) + letter, rules: data.rules });
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
    // Halves away from zero, as the coach's words round (Math.round would take -1.5 to -1, and
    // the table would show -0,1 where the coach says -0,2).
    const tenths = Math.sign(seeds) * Math.round(Math.abs(seeds) * 10);
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
      data = await api('POST', '/api/replay', { text: main.start + ' ' + main.moves.slice(0, m.ply) + m.line.replace(/ /g, ''), rules: main.rules });
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
