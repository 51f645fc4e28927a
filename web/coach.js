// The coach: its words come from coach-messages.json, the catalogue the terminal's coach uses too;
// the server explains every legal move (POST /api/coach/explain) and reviews a game
// (POST /api/coach/review) in the language asked for. This file draws what they answer.
'use strict';

const Coach = (() => {
  let catalogue = null;

  function language() {
    return typeof window.getLanguage === 'function' ? window.getLanguage() : 'en';
  }

  // Loads the catalogue once; the coach's pieces wait for it.
  async function load() {
    if (!catalogue) {
      const r = await fetch('/static/coach-messages.json');
      if (!r.ok) throw new Error('coach-messages.json: ' + r.status);
      catalogue = await r.json();
    }
    return catalogue;
  }

  function text(key, vars) {
    const lang = language();
    let s = (catalogue && ((catalogue[lang] && catalogue[lang][key]) || (catalogue.en && catalogue.en[key]))) || key;
    for (const [k, v] of Object.entries(vars || {})) s = s.split('{' + k + '}').join(String(v));
    return typeof window.typeset === 'function' ? window.typeset(s) : s;
  }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children) if (c != null) e.append(c);
    return e;
  }

  async function post(path, body) {
    await load();
    const r = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.assign({ lang: language() }, body)),
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error((data.error && data.error.message) || ('HTTP ' + r.status));
    return data;
  }

  // Every legal move of the position reached by `moves` from `position`, explained, best first;
  // with the threats on the board and the feeding rule's note.
  function explain(position, moves, rules) {
    return post('/api/coach/explain', { position, moves: moves || '', rules });
  }

  // The mistakes of `player` ('S', 'N', or both when absent) in a game.
  function review(position, moves, rules, player) {
    return post('/api/coach/review', { position, moves: moves || '', rules, player });
  }

  // A list of every move with its explanation.
  function explanationList(answer) {
    const list = el('ul', { class: 'coach-moves', id: 'coach-moves' });
    for (const m of answer.moves || []) {
      list.append(el('li', { 'data-move': m.move }, el('strong', {}, m.move), ' ', m.text));
    }
    return list;
  }

  // The threats on the board, one sentence each.
  function threatList(answer) {
    const threats = answer.threats || [];
    const box = el('div', { class: 'coach-threats', id: 'coach-threats' });
    if (!threats.length) box.append(el('p', {}, text('coach.noThreat')));
    for (const t of threats) box.append(el('p', { 'data-by': t.by }, t.text));
    if (answer.rule) box.append(el('p', { class: 'coach-rule' }, answer.rule));
    return box;
  }

  // The houses the side to move should watch: those the opponent could take now.
  function housesAtRisk(answer, side) {
    const houses = new Set();
    for (const t of answer.threats || []) if (t.by !== side) for (const h of t.houses) houses.add(h);
    return houses;
  }

  // The coach's advice for the side to move: the best move and why.
  function advice(answer) {
    const best = (answer.moves || [])[0];
    if (!best) return null;
    return el('div', { class: 'coach-advice', id: 'coach-advice' },
      el('p', {}, el('strong', {}, text('coach.advice', { move: best.move }))), el('p', {}, best.text));
  }

  // A game's review: each mistake with its words and a button that shows the position before it.
  function reviewList(answer, show) {
    const box = el('section', { class: 'coach-review', id: 'coach-review' }, el('h2', {}, text('coach.reviewTitle')));
    const mistakes = answer.mistakes || [];
    if (!mistakes.length) box.append(el('p', {}, text('coach.noMistakes')));
    const list = el('ul', {});
    for (const m of mistakes) {
      list.append(el('li', { 'data-ply': String(m.ply) }, m.text, ' ',
        el('button', { class: 'secondary', type: 'button', onclick: () => show(m) }, text('coach.show'))));
    }
    if (mistakes.length) box.append(list);
    return box;
  }

  return { load, text, explain, review, explanationList, threatList, housesAtRisk, advice, reviewList };
})();

window.Coach = Coach;
