// A game's record and result as the pages write them: the moves numbered, and how a game ended.
import { h } from './dom.js';
import { t, sideName } from './i18n.js';

// The `ply`-th move (1 for the first) as the move list numbers it: "4. D" for South's fourth,
// "4... d" for North's; `letter` when known.
export function moveLabel(start, ply, letter) {
  const index = ply - 1 + (start.slice(-1) === 'N' ? 1 : 0);
  const south = index % 2 === 0;
  return Math.floor(index / 2) + 1 + (south ? '.' : '...') + (letter ? ' ' + letter : '');
}

// "1. F f 2. E a": the moves numbered by pairs, South's first; each number stays on one line
// with its moves. Each move is a button-like span that carries its ply (the number of moves
// played once it is on the board); a move that captured says how many seeds (`captures`, one
// count a move, when known). `from` skips the first moves (a variation shows only its own).
export function notation(start, moves, current, from, captures) {
  const first = start.slice(-1);
  const out = [];
  let pair = null;
  for (let i = from || 0; i < moves.length; i++) {
    const index = i + (first === 'N' ? 1 : 0);
    const south = 'ABCDEF'.includes(moves[i]);
    if (south || !pair) {
      pair = h('span', { class: 'pair' });
      out.push(pair, ' ');
    }
    if (south) pair.append(h('span', { class: 'num' }, Math.floor(index / 2) + 1 + '. '));
    else if (i === (from || 0)) pair.append(h('span', { class: 'num' }, Math.floor(index / 2) + 1 + '... '));
    else pair.append(' ');
    const took = captures && captures[i];
    pair.append(h('span', { class: 'ply' + (i + 1 === current ? ' current' : '') + (took ? ' took' : ''), 'data-ply': i + 1, tabindex: '-1' },
      moves[i], took ? h('span', { class: 'capture', title: t('captured', { n: took }) }, '×' + took) : null));
  }
  return out;
}

// How a game ended, as its reader sees it: the winner's score first (a draw: the reader's, or
// South's for a watcher), then why. A game the players ended before any seed was captured shows
// no score (a 0–0 would read as the result).
export function endText(end, you) {
  if (end.reason === 'aborted') return t('aborted');
  const [s, n] = end.score.split('-');
  const first = end.winner || you || 'S';
  const shown = first === 'N' ? n + '–' + s : s + '–' + n;
  const byPlayers = ['resign', 'agreement', 'time'].includes(end.reason);
  const none = Number(s) + Number(n) === 0;
  const score = (byPlayers && none ? '' : shown + ' ') + '— ' + t('reason.' + end.reason);
  if (!end.winner) return t('drawn', { score });
  if (you) return t(end.winner === you ? 'won' : 'lost', { score });
  return t('winnerIs', { side: sideName(end.winner), score });
}
