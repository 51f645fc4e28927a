// The rules page: the rules in the page's language, with small diagrams.
import { app, h, fill, setTitle } from '../lib/dom.js';
import { RULES, getLanguage, typeset } from '../lib/i18n.js';
import { Board, parsePosition } from '../lib/board.js';

export function rulesPage() {
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
