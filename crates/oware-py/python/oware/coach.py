"""The coach: why a move is good or bad, in Catalan, Spanish, English or French.

>>> import oware
>>> p = oware.Position("4-4-4-4-4-3-4-1-2-4-4-4-3-3-S")
>>> print(oware.coach.explain(p, move="F", depth=4)[0].facts)
F sows 3 seeds and takes b and c: 5 seeds.
"""

from ._oware import COACH_DEFAULT_DEPTH, Explanation
from ._oware import coach_explain as _explain

__all__ = ["Explanation", "explain"]

#: The depth the coach searches every move to when none is given (as the ``oware`` command does).
DEFAULT_DEPTH = COACH_DEFAULT_DEPTH


def explain(target, lang="en", move=None, depth=DEFAULT_DEPTH):
    """The coach's explanations of the legal moves of ``target`` (a ``Game``, a ``Position`` or a
    position string), best first, in ``lang`` (``"ca"``, ``"es"``, ``"en"`` or ``"fr"``), from an
    analysis of every move to ``depth`` plies; only ``move``'s (a letter or a column) when given.
    Each ``Explanation`` has ``move``, ``text`` (the facts, then the engine's verdict), ``facts``,
    ``score``, ``best_move``, ``best_score``, ``loss`` (centiseeds) and ``line``."""
    return _explain(target, lang, move, depth)
