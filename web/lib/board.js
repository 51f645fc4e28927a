// The oware board drawn in SVG: twelve houses with their seeds and counts, two labelled stores,
// the last move marked, the row of the side to move lit, and sowing animated seed by seed with
// captures shown. Every house is a focusable button with a spoken label; the page decides what a
// press means (a move, or why it is not one). The board only draws: the server decides what is
// legal and what a move did.
import { saved } from './dom.js';
import { t } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
export const LETTERS = 'ABCDEFabcdef';

export function parsePosition(text) {
  const f = text.split('-');
  return { houses: f.slice(0, 12).map(Number), stores: [Number(f[12]), Number(f[13])], side: f[14] };
}

function svgEl(name, attrs, parent) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// Seed positions inside a house of radius r: a sunflower spiral, so any count looks natural.
function seedOffsets(n, r) {
  const out = [];
  const shown = Math.min(n, 24);
  for (let i = 0; i < shown; i++) {
    const d = (r - 10) * Math.sqrt((i + 0.5) / Math.max(shown, 6));
    const a = i * 2.399963;
    out.push([d * Math.cos(a), d * Math.sin(a)]);
  }
  return out;
}

// Two drawings of the same board. Wide: the classic board, stores at the ends. Narrow (phones):
// the six columns take the whole width and the stores become bars above and below, so houses,
// counts and letters stay large on a small screen.
const LAYOUTS = {
  wide: {
    width: 900, height: 330, r: 50, seed: 6.5,
    col: (c) => 160 + c * 116, rowY: [110, 220],
    countDy: [-62, 82], countSize: 28, letterSize: 20,
    frame: { x: 4, y: 4, width: 892, height: 322, rx: 40 },
    store: (top) => ({ x: top ? 20 : 800, y: 40, width: 80, height: 250, rx: 30 }),
  },
  narrow: {
    width: 600, height: 430, r: 45, seed: 6,
    col: (c) => 50 + c * 100, rowY: [165, 265],
    countDy: [-58, 78], countSize: 32, letterSize: 26,
    frame: { x: 2, y: 62, width: 596, height: 306, rx: 30 },
    store: (top) => ({ x: 2, y: top ? 2 : 374, width: 596, height: 54, rx: 16 }),
  },
};

// Below this width (CSS pixels) the narrow drawing is used.
const NARROW_BELOW = 560;

export class Board {
  // options.onPick(letter): a house was pressed (click, Enter or Space);
  // options.onSow(): one seed was sown in an animation (for the sound).
  constructor(container, options) {
    this.options = Object.assign({ onPick: null, onSow: null }, options || {});
    this.bottom = 'S';
    this.layout = 'wide';
    this.svg = svgEl('svg', { class: 'board', role: 'group' });
    this.svg.setAttribute('aria-label', t('board.label'));
    container.appendChild(this.svg);
    this.pos = null;
    this.marks = {};
    const fit = () => {
      const width = container.getBoundingClientRect().width || window.innerWidth;
      const layout = width > 0 && width < NARROW_BELOW ? 'narrow' : 'wide';
      if (layout !== this.layout) {
        this.layout = layout;
        if (this.pos) this.draw(this.pos, this.marks);
      }
    };
    if (window.ResizeObserver) new ResizeObserver(fit).observe(container);
    fit();
  }

  setBottom(side) {
    this.bottom = side === 'N' ? 'N' : 'S';
    if (this.pos) this.draw(this.pos, this.marks);
  }

  // Where house h is drawn, given which side sits at the bottom.
  houseCenter(h) {
    const L = LAYOUTS[this.layout];
    const bottomFirst = this.bottom === 'S' ? 0 : 6;
    const own = h >= bottomFirst && h < bottomFirst + 6;
    const col = own ? h - bottomFirst : 5 - (h - (6 - bottomFirst));
    return { x: L.col(col), y: L.rowY[own ? 1 : 0], own };
  }

  // marks: { legal: letters offered, last: house index, captured: Set, risk: Set (the coach's
  // houses the opponent can take), sowing: house,
  // gain: side whose store just grew, turn: side whose row is lit }
  draw(pos, marks) {
    this.pos = pos;
    this.marks = marks || {};
    const m = this.marks;
    const L = LAYOUTS[this.layout];
    const svg = this.svg;
    // Redrawing replaces the houses: the focused one gets its focus back afterwards.
    const focused = svg.contains(document.activeElement) ? document.activeElement.dataset.house : null;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute('viewBox', `0 0 ${L.width} ${L.height}`);
    svg.dataset.layout = this.layout;
    svgEl('rect', Object.assign({ class: 'frame' }, L.frame), svg);
    // The row of the side to move is lit, so whose turn it is shows at a glance.
    if (m.turn) {
      const y = L.rowY[m.turn === this.bottom ? 1 : 0];
      const pad = Math.min(8, L.col(0) - L.r - 3);
      svgEl('rect', { x: L.col(0) - L.r - pad, y: y - L.r - pad, width: L.col(5) - L.col(0) + 2 * (L.r + pad), height: 2 * (L.r + pad), rx: L.r + pad, class: 'turn-row' }, svg);
    }
    // Stores: the top player's first (left, or above), then the bottom player's (right, or below:
    // sowing runs left to right along the bottom row towards it).
    const top = this.bottom === 'S' ? 'N' : 'S';
    for (const side of [top, this.bottom]) {
      const box = L.store(side === top);
      const count = pos.stores[side === 'S' ? 0 : 1];
      const name = t(side === 'S' ? 'south' : 'north');
      const g = svgEl('g', { class: 'store-g' + (m.gain === side ? ' gain' : ''), 'data-store': side }, svg);
      svgEl('rect', Object.assign({ class: 'store' }, box), g);
      const label = svgEl('text', { class: 'store-label' }, g);
      const value = svgEl('text', { class: 'store-count' }, g);
      if (this.layout === 'wide') {
        label.setAttribute('x', box.x + box.width / 2);
        label.setAttribute('y', box.y + 30);
        value.setAttribute('x', box.x + box.width / 2);
        value.setAttribute('y', box.y + box.height / 2 + 14);
      } else {
        label.setAttribute('x', box.x + 24);
        label.setAttribute('y', box.y + box.height / 2 + 9);
        value.setAttribute('x', box.x + box.width - 30);
        value.setAttribute('y', box.y + box.height / 2 + 13);
      }
      label.textContent = name;
      value.textContent = String(count);
      svgEl('title', {}, g).textContent = t('store.label', { side: name, n: count });
    }
    const legal = m.legal || '';
    for (let h = 0; h < 12; h++) {
      const { x, y, own } = this.houseCenter(h);
      const letter = LETTERS[h];
      const n = pos.houses[h];
      const classes = ['house'];
      if (legal.includes(letter)) classes.push('legal');
      if (m.last === h) classes.push('last');
      if (m.sowing === h) classes.push('sowing');
      if (m.captured && m.captured.has(h)) classes.push('captured');
      // A house the coach marks as at risk says so to a screen reader too, not by its outline alone.
      const atRisk = Boolean(m.risk && m.risk.has(h));
      if (atRisk) classes.push('at-risk');
      const g = svgEl('g', { class: classes.join(' '), 'data-house': letter }, svg);
      if (this.options.onPick) {
        g.setAttribute('tabindex', '0');
        g.setAttribute('role', 'button');
        g.setAttribute('aria-disabled', legal.includes(letter) ? 'false' : 'true');
        g.addEventListener('click', () => this.options.onPick(letter));
        g.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            e.stopPropagation();
            this.options.onPick(letter);
          }
        });
      }
      g.setAttribute('aria-label', houseLabel(h, n) + (atRisk ? ', ' + t('house.atRisk') : ''));
      svgEl('circle', { cx: x, cy: y, r: L.r, class: 'pit' }, g);
      for (const [dx, dy] of seedOffsets(n, L.r)) {
        svgEl('circle', { cx: x + dx, cy: y + dy, r: L.seed, class: 'seed' }, g);
      }
      // The letter and the count sit outside the house, towards the board's edge.
      const ty = y + L.countDy[own ? 1 : 0];
      const lt = svgEl('text', { x: x - L.r * 0.45, y: ty, class: 'letter', 'font-size': L.letterSize }, g);
      lt.textContent = letter;
      const count = svgEl('text', { x: x + L.r * 0.3, y: ty, class: 'count', 'font-size': L.countSize }, g);
      count.textContent = String(n);
      if (focused === letter) g.focus();
    }
  }

  // Sows `move` from `before` seed by seed, then shows the captures that turn the sown board
  // into `after` (the position the server sent), then draws `after`.
  async animate(before, move, after, finalMarks) {
    const from = LETTERS.indexOf(move);
    const houses = before.houses.slice();
    let n = houses[from];
    houses[from] = 0;
    const step = Math.max(60, Math.min(220, 1800 / Math.max(n, 1)));
    const frame = (extra) => this.draw({ houses, stores: before.stores, side: before.side }, Object.assign({ last: from }, extra));
    frame({});
    let h = from;
    while (n > 0) {
      await sleep(step);
      h = (h + 1) % 12;
      if (h === from) continue; // the origin house is skipped on every lap
      houses[h] += 1;
      n -= 1;
      frame({ sowing: h });
      if (this.options.onSow) this.options.onSow();
    }
    const captured = new Set();
    for (let i = 0; i < 12; i++) if (houses[i] !== after.houses[i]) captured.add(i);
    if (captured.size > 0) {
      await sleep(250);
      frame({ captured });
      await sleep(700);
      const gain = after.stores[0] > before.stores[0] ? 'S' : after.stores[1] > before.stores[1] ? 'N' : null;
      this.draw(after, Object.assign({}, finalMarks, { gain }));
      await sleep(350);
    } else {
      await sleep(step);
    }
    this.draw(after, finalMarks);
  }
}

// "South's house C, 4 seeds", in the page's language.
function houseLabel(h, n) {
  return t(n === 1 ? 'house.label1' : 'house.label', { side: t(h < 6 ? 'south' : 'north'), letter: LETTERS[h], n });
}

// Tests (and impatient players) can speed the animations up: localStorage oware.animation=fast.
function sleep(ms) {
  const fast = saved.get('oware.animation') === 'fast';
  return new Promise((resolve) => setTimeout(resolve, fast ? ms / 20 : ms));
}
