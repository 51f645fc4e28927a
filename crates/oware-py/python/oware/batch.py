"""The batched API: one call plays a move in each of N positions (or games), in Rust, without the
GIL, for self-play at millions of steps per second.

A position is a row of 15 ``int8`` values: the 12 houses (South's ``A``-``F``, then North's
``a``-``f``), South's and North's stores, and the side to move (0 South, 1 North), the layout of
the environments' observations and of ``Position.to_array()``. A move is a column 0-5 of the
mover's own row (the environments' actions): column ``c`` is house ``A+c`` for South and ``a+c``
for North.

``step`` and ``Games.step`` return ``(positions, rewards, dones, masks)``:

- ``positions``: N×15 ``int8``, the positions after the moves (with ``autoreset``, a game that
  ended is replaced by the start position);
- ``rewards``: N ``float32``, the final seed difference for the player who moved when the move
  ended the game (halves of a seed under awari's even split of a repetition), else 0;
- ``dones``: N ``bool``, whether the move ended the game;
- ``masks``: N×6 ``bool``, the legal moves of the positions returned.

``step`` works on bare positions, which carry no history: a game ends there when a store passes
24, at 24-24, or when the mover has no move, never by repetition. ``Games`` keeps each game's
history and ends games exactly as ``Game`` does.

>>> import numpy as np, oware
>>> positions = oware.batch.initial(4)
>>> positions, rewards, dones, masks = oware.batch.step(positions, np.array([5, 4, 3, 2]))
>>> positions[0, 14], masks[0].tolist()
(1, [True, True, True, True, True, True])
"""

import numpy as np

from ._oware import Games
from ._oware import batch_initial as _initial
from ._oware import batch_legal_mask as _legal_mask
from ._oware import batch_random_moves as _random_moves
from ._oware import batch_step as _step

__all__ = ["Games", "initial", "legal_mask", "random_moves", "step"]


def initial(n):
    """``n`` start positions, an N×15 ``int8`` array."""
    return _initial(n)


def step(positions, moves, rules="abapa", autoreset=False):
    """Plays ``moves[i]`` (a column 0-5) in ``positions[i]`` for every row; returns
    ``(positions, rewards, dones, masks)`` (see the module). Arrays of other integer types are
    converted. An illegal move or a malformed row raises ``ValueError`` naming the row."""
    return _step(
        np.ascontiguousarray(positions, dtype=np.int8),
        np.ascontiguousarray(moves, dtype=np.int64),
        rules,
        autoreset,
    )


def legal_mask(positions, rules="abapa"):
    """The legal moves of each position, N×6 ``bool``."""
    return _legal_mask(np.ascontiguousarray(positions, dtype=np.int8), rules)


def random_moves(masks, rng=None):
    """One uniformly random legal column per row of ``masks`` (N×6 ``bool``), -1 for a row
    without a legal move. ``rng`` (a ``numpy.random.Generator``, default a fresh one) draws the
    seed of the generator the rows use, so a seeded ``rng`` gives repeatable moves."""
    if rng is None:
        rng = np.random.default_rng()
    seed = int(rng.integers(0, 2**63))
    return _random_moves(np.ascontiguousarray(masks, dtype=bool), seed)
