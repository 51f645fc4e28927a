// The oware board drawn in SVG: twelve houses with their seeds and counts, two stores, legal
// houses clickable, the last move marked, and sowing animated seed by seed with captures shown.
// The board only draws: the server decides what is legal and what a move did.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
const LETTERS = 'ABCDEFabcdef';

function parsePosition(text) {
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

class Board {
  constructor(container, options) {
    this.options = Object.assign({ small: false, onPick: null }, options || {});
    this.bottom = 'S';
    this.svg = svgEl('svg', { viewBox: '0 0 840 300', class: 'board', role: 'img' });
    container.appendChild(this.svg);
    this.pos = null;
    this.marks = {};
  }

  setBottom(side) {
    this.bottom = side === 'N' ? 'N' : 'S';
    if (this.pos) this.draw(this.pos, this.marks);
  }

  // Where house h is drawn, given which side sits at the bottom.
  houseCenter(h) {
    const bottomFirst = this.bottom === 'S' ? 0 : 6;
    const own = h >= bottomFirst && h < bottomFirst + 6;
    const col = own ? h - bottomFirst : 5 - (h - (6 - bottomFirst));
    return { x: 150 + col * 108, y: own ? 205 : 95, own };
  }

  // marks: { legal: string of letters, last: house index, captured: Set, sowing: house, gain: side }
  draw(pos, marks) {
    this.pos = pos;
    this.marks = marks || {};
    const m = this.marks;
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svgEl('rect', { x: 4, y: 30, width: 832, height: 240, rx: 40, class: 'frame' }, svg);
    // Stores: the bottom player's on the right (sowing runs left to right along the bottom row).
    const storeSides = this.bottom === 'S' ? ['N', 'S'] : ['S', 'N'];
    storeSides.forEach((side, i) => {
      const x = i === 0 ? 20 : 750;
      const g = svgEl('g', { class: 'store-g' + (m.gain === side ? ' gain' : ''), 'data-store': side }, svg);
      svgEl('rect', { x, y: 50, width: 70, height: 200, rx: 30, class: 'store' }, g);
      const count = pos.stores[side === 'S' ? 0 : 1];
      const t = svgEl('text', { x: x + 35, y: 162, class: 'store-count' }, g);
      t.textContent = String(count);
    });
    const legal = m.legal || '';
    for (let h = 0; h < 12; h++) {
      const { x, y, own } = this.houseCenter(h);
      const letter = LETTERS[h];
      const classes = ['house'];
      if (legal.includes(letter)) classes.push('legal');
      if (m.last === h) classes.push('last');
      if (m.sowing === h) classes.push('sowing');
      if (m.captured && m.captured.has(h)) classes.push('captured');
      const g = svgEl('g', { class: classes.join(' '), 'data-house': letter }, svg);
      svgEl('circle', { cx: x, cy: y, r: 48, class: 'pit' }, g);
      const n = pos.houses[h];
      for (const [dx, dy] of seedOffsets(n, 48)) {
        svgEl('circle', { cx: x + dx, cy: y + dy, r: 6.5, class: 'seed' }, g);
      }
      // The count sits outside the house, towards the board's edge; the letter beside it.
      const ty = own ? y + 62 : y - 50;
      const count = svgEl('text', { x: x + 14, y: ty, class: 'count' }, g);
      count.textContent = String(n);
      const lt = svgEl('text', { x: x - 22, y: ty - 2, class: 'letter' }, g);
      lt.textContent = letter;
      svgEl('title', {}, g).textContent = letter + ': ' + n;
      if (legal.includes(letter) && this.options.onPick) {
        g.addEventListener('click', () => this.options.onPick(letter));
      }
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

// Tests (and impatient players) can speed the animations up: localStorage oware.animation=fast.
function sleep(ms) {
  const fast = saved.get('oware.animation') === 'fast';
  return new Promise((resolve) => setTimeout(resolve, fast ? ms / 20 : ms));
}

window.Board = Board;
window.parsePosition = parsePosition;
window.LETTERS = LETTERS;
