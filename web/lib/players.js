// What this browser remembers of its player: the games it holds a seat in, and the name it plays
// under.
import { h, saved } from './dom.js';
import { t } from './i18n.js';

// The games this browser holds a seat in, newest first: { id, side, mode, level, at }.
export const myGames = {
  list() {
    let list = [];
    try { list = JSON.parse(saved.get('oware.games') || '[]'); } catch (e) { list = []; }
    if (!Array.isArray(list)) list = [];
    return list.filter((g) => g && /^[0-9a-f]{32}$/.test(g.id));
  },
  remember(entry) {
    const list = this.list().filter((g) => g.id !== entry.id);
    list.unshift(Object.assign({ at: Date.now() }, entry));
    saved.set('oware.games', JSON.stringify(list.slice(0, 50)));
  },
  forget(id) {
    saved.set('oware.games', JSON.stringify(this.list().filter((g) => g.id !== id)));
  },
};

// The player's name, asked once and remembered by this browser (editable on the home page). It
// goes with every game made or joined; the server cleans it too, and the page shows names only
// as text.
export const playerName = {
  get() { return saved.get('oware.name') || ''; },
  set(value) { saved.set('oware.name', String(value).replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim().slice(0, 40)); },
};

export function nameInput(id) {
  return h('input', { id, name: 'player-name', maxlength: '40', autocomplete: 'nickname', value: playerName.get(),
    placeholder: t('name.placeholder'), oninput: (e) => playerName.set(e.target.value) });
}
