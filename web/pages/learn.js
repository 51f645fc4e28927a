// The Learn page (/learn): short lessons of the seeds' strategy, step by step. The server sends
// every lesson (GET /api/lessons) with each step's words and the coach's answer to every legal
// move, so the page answers at once. Which steps the learner has done is kept in this browser.
import { app, h, fill, saved, setTitle } from '../lib/dom.js';
import { t, getLanguage, typeset } from '../lib/i18n.js';
import { api, errorText } from '../lib/api.js';
import { Board, parsePosition } from '../lib/board.js';
import * as Coach from '../lib/coach.js';

const PROGRESS = 'oware.lessons';

// The steps done of each lesson, by id.
const progress = {
  all() {
    try { return JSON.parse(saved.get(PROGRESS) || '{}') || {}; } catch (e) { return {}; }
  },
  done(id) { return Number(this.all()[id] || 0); },
  set(id, steps) {
    const all = this.all();
    all[id] = Math.max(Number(all[id] || 0), steps);
    saved.set(PROGRESS, JSON.stringify(all));
  },
  reset(id) {
    const all = this.all();
    delete all[id];
    saved.set(PROGRESS, JSON.stringify(all));
  },
};

export async function learnPage() {
  setTitle(t('learn.title'));
  document.body.dataset.page = 'learn';
  const error = h('div', { class: 'error', id: 'learn-error', role: 'alert' });
  fill(app, h('h1', {}, t('learn.title')), error);
  let lessons;
  try {
    lessons = (await api('GET', '/api/lessons?lang=' + encodeURIComponent(getLanguage()))).lessons;
  } catch (e) {
    error.textContent = errorText(e);
    return;
  }
  const open = lessons.find((l) => '#' + l.id === location.hash);
  if (open) lessonView(lessons, open);
  else listView(lessons);
}

// Every lesson, with how far the learner got.
function listView(lessons) {
  fill(app,
    h('h1', {}, t('learn.title')),
    h('p', {}, t('learn.intro')),
    h('ol', { class: 'lessons', id: 'lessons' }, lessons.map((lesson) => {
      const done = Math.min(progress.done(lesson.id), lesson.steps.length);
      return h('li', { 'data-lesson': lesson.id, class: done >= lesson.steps.length ? 'done' : '' },
        h('a', { href: '/learn#' + lesson.id, onclick: (e) => { e.preventDefault(); lessonView(lessons, lesson); } },
          lesson.title),
        ' ', h('span', { class: 'hint lesson-progress' }, t('learn.progress', { done, total: lesson.steps.length })));
    })));
  if (location.hash) history.replaceState(null, '', '/learn');
}

// One lesson, from the first step not yet done.
function lessonView(lessons, lesson) {
  if (location.hash !== '#' + lesson.id) history.replaceState(null, '', '/learn#' + lesson.id);
  setTitle(lesson.title);
  let index = Math.min(progress.done(lesson.id), lesson.steps.length - 1);
  let solved = false;
  const heading = h('p', { class: 'status', id: 'lesson-step' });
  const words = h('p', { class: 'lesson-text', id: 'lesson-text' });
  const boardWrap = h('div', { class: 'board-wrap' });
  const board = new Board(boardWrap, { onPick: (letter) => answer(letter) });
  const feedback = h('div', { class: 'puzzle-feedback', id: 'lesson-feedback', role: 'status', 'aria-live': 'polite' });
  const next = h('button', { id: 'lesson-next', hidden: true, onclick: () => advance() }, t('learn.next'));
  const back = h('button', { class: 'secondary', id: 'lesson-back', onclick: () => listView(lessons) }, t('learn.back'));
  fill(app, h('h1', {}, lesson.title), heading, words, boardWrap, feedback,
    h('div', { class: 'row' }, next, back), h('p', { class: 'hint' }, t('learn.clickHint')));
  show();

  function show() {
    const step = lesson.steps[index];
    const pos = parsePosition(step.position);
    solved = false;
    heading.textContent = t('learn.step', { n: index + 1, total: lesson.steps.length }) + ' · ' + Coach.text('side.' + pos.side);
    words.textContent = typeset(step.text);
    feedback.textContent = '';
    feedback.className = 'puzzle-feedback';
    next.hidden = true;
    board.setBottom(pos.side);
    board.draw(pos, { legal: Object.keys(step.answers).join(''), turn: pos.side });
  }

  async function answer(letter) {
    if (solved) return;
    const step = lesson.steps[index];
    const a = step.answers[letter];
    if (!a) return say(Coach.text('puzzle.illegal', { move: letter }), 'wrong');
    if (!a.right) return say(a.text, 'wrong');
    solved = true;
    say(a.text, 'right');
    await board.animate(parsePosition(step.position), letter, parsePosition(a.after), {});
    progress.set(lesson.id, index + 1);
    const last = index + 1 >= lesson.steps.length;
    const following = lessons[lessons.indexOf(lesson) + 1];
    next.textContent = !last ? t('learn.next') : following ? t('learn.nextLesson') : t('learn.back');
    next.hidden = false;
    next.focus();
  }

  function advance() {
    if (index + 1 < lesson.steps.length) {
      index += 1;
      show();
      return;
    }
    const following = lessons[lessons.indexOf(lesson) + 1];
    if (following) lessonView(lessons, following);
    else listView(lessons);
  }

  function say(text, kind) {
    feedback.textContent = typeset(text);
    feedback.className = 'puzzle-feedback ' + kind;
  }
}
