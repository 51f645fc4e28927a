// The page's building blocks: elements made from a tag, attributes and children, the toast, the
// title, and the browser's local storage. No texts: those come from i18n.js, which builds on this.

// The element every page draws itself into.
export const app = document.getElementById('app');

// Local storage that may be missing or refused (private windows, strict settings): reads give
// null and writes are dropped, and the pages still work (the server's seat cookie keeps a
// player's seat).
export const saved = {
  get(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } },
  set(key, value) { try { window.localStorage.setItem(key, value); } catch (e) { /* not kept */ } },
};

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) el.setAttribute(k, v === true ? '' : v);
  }
  fill(el, ...children);
  return el;
}

// Sets an element's children; null and undefined mean "nothing here" (replaceChildren would
// print them as the words "null" and "undefined").
export function fill(el, ...children) {
  Element.prototype.replaceChildren.call(el, ...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

export function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove('show'), 3500);
}

// Set while the opponent has moved and the page is in the background: the title is marked.
export const attention = { pending: false };

// The page's title: what the page is, then the site.
export function setTitle(text) {
  document.title = (attention.pending && document.hidden ? '● ' : '') + (text ? text + ' — Oware' : 'Oware');
}

// `text` with each `word` in it set as code that never breaks across lines.
export function withCode(text, word) {
  return text.split(word).flatMap((part, i) => (i ? [h('code', { class: 'nowrap' }, word), part] : [part]));
}
