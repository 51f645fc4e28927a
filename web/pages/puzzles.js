// The puzzle page (/puzzles): a position where one move wins; click the house to sow. The server
// sends the puzzles of the theme chosen (GET /api/puzzles) with the coach's words on every legal
// move, so the page answers at once. The words come from coach-messages.json, the terminal's too.
import { app, h, fill, saved, setTitle } from '../lib/dom.js';
import { t, getLanguage, typeset } from '../lib/i18n.js';
import { api, errorText } from '../lib/api.js';
import { Board, parsePosition } from '../lib/board.js';
import * as Coach from '../lib/coach.js';

export function puzzlePage() {
  setTitle(t('puzzle.title'));
  document.body.dataset.page = 'puzzles';
  let puzzles = [];
  let index = 0;
  let solved = false;
  let current = null;
  const themeSelect = h('select', { id: 'puzzle-theme', 'aria-label': t('puzzle.theme') });
  const heading = h('p', { class: 'status', id: 'puzzle-title' });
  const boardWrap = h('div', { class: 'board-wrap' });
  const board = new Board(boardWrap, { onPick: (letter) => answer(letter) });
  const feedback = h('div', { class: 'puzzle-feedback', id: 'puzzle-feedback', role: 'status', 'aria-live': 'polite' });
  const hintBox = h('p', { class: 'hint', id: 'puzzle-hint', hidden: true });
  const source = h('p', { class: 'hint', id: 'puzzle-source' });
  const error = h('div', { class: 'error', id: 'puzzle-error', role: 'alert' });
  const hintButton = h('button', { class: 'secondary', id: 'puzzle-hint-button', onclick: showHint }, t('puzzle.hint'));
  const solutionButton = h('button', { class: 'secondary', id: 'puzzle-solution-button', onclick: reveal }, t('puzzle.solution'));
  const nextButton = h('button', { id: 'puzzle-next', onclick: () => show(index + 1) }, t('puzzle.next'));
  fill(app,
    h('h1', {}, t('puzzle.title')),
    h('div', { class: 'row' }, h('label', {}, t('puzzle.theme') + ' ', themeSelect)),
    error, heading, boardWrap, feedback, hintBox,
    h('div', { class: 'row' }, hintButton, solutionButton, nextButton),
    h('p', { class: 'hint' }, t('puzzle.clickHint')), source);
  themeSelect.addEventListener('change', () => {
    saved.set('oware.puzzleTheme', themeSelect.value);
    load(themeSelect.value, 0);
  });
  load(saved.get('oware.puzzleTheme') || '', Number(saved.get('oware.puzzle') || 0));

  async function load(theme, at) {
    error.textContent = '';
    let data;
    try {
      data = await api('GET', '/api/puzzles?lang=' + encodeURIComponent(getLanguage()) + (theme ? '&theme=' + encodeURIComponent(theme) : ''));
    } catch (e) {
      // A theme remembered from an older set may be gone: show every puzzle instead.
      if (theme && e.code === 'bad-theme') return load('', 0);
      error.textContent = errorText(e);
      return;
    }
    const total = data.themes.reduce((n, th) => n + th.count, 0);
    fill(themeSelect, h('option', { value: '' }, t('puzzle.allThemes', { n: total })),
      data.themes.filter((th) => th.count > 0).map((th) => h('option', { value: th.theme }, th.name + ' (' + th.count + ')')));
    themeSelect.value = theme;
    puzzles = data.puzzles;
    show(at);
  }

  function show(at) {
    if (puzzles.length === 0) return;
    index = ((at % puzzles.length) + puzzles.length) % puzzles.length;
    saved.set('oware.puzzle', String(index));
    current = puzzles[index];
    solved = false;
    const pos = parsePosition(current.position);
    // A puzzle asks for a forced win, or for seeds: the heading says which.
    heading.textContent = Coach.text(current.goal === 'gain' ? 'puzzle.headerGain' : 'puzzle.header', {
      n: index + 1, total: puzzles.length, theme: current.themeName, side: Coach.text('side.' + pos.side),
    });
    board.setBottom(pos.side);
    board.draw(pos, { legal: Object.keys(current.answers).join(''), turn: pos.side });
    feedback.textContent = '';
    feedback.className = 'puzzle-feedback';
    hintBox.hidden = true;
    source.textContent = t(current.source.startsWith('master') ? 'puzzle.fromMaster' : 'puzzle.fromSelfPlay');
    nextButton.classList.add('secondary');
  }

  function say(text, kind) {
    feedback.textContent = typeset(text);
    feedback.className = 'puzzle-feedback ' + kind;
  }

  function showHint() {
    if (!current) return;
    hintBox.textContent = typeset(current.hint);
    hintBox.hidden = false;
  }

  async function finish(text) {
    solved = true;
    say(text, 'right');
    nextButton.classList.remove('secondary');
    const before = parsePosition(current.position);
    await board.animate(before, current.solution, parsePosition(current.after), {});
    nextButton.focus();
  }

  function reveal() {
    if (current && !solved) finish(current.reveal);
  }

  function answer(letter) {
    if (!current || solved) return;
    const a = current.answers[letter];
    if (!a) say(Coach.text('puzzle.illegal', { move: letter }), 'wrong');
    else if (a.right) finish(a.text);
    else say(a.text, 'wrong');
  }
}
