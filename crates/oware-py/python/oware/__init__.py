"""Oware (abapa and awari) for Python: exact rules, a strong engine, endgame databases, the coach,
Gymnasium and PettingZoo environments, and a batched API for self-play.

>>> import oware
>>> oware.Position.initial().legal_moves()
['A', 'B', 'C', 'D', 'E', 'F']

Importing ``oware`` registers the Gymnasium environment ``oware/Oware-v0`` when Gymnasium is
installed (``gymnasium.make("oware/Oware-v0")``; or ``gymnasium.make("oware:oware/Oware-v0")``,
which imports ``oware`` itself). See docs/python.md in the project for a tour.
"""

from ._oware import (
    OBSERVATION_SIZE,
    DatabaseValue,
    Engine,
    Game,
    GameEnd,
    Position,
    SearchResult,
    Tablebase,
    build_tablebase,
    perft,
)
from . import batch, coach

__all__ = [
    "OBSERVATION_SIZE",
    "DatabaseValue",
    "Engine",
    "Game",
    "GameEnd",
    "Position",
    "SearchResult",
    "Tablebase",
    "batch",
    "build_tablebase",
    "coach",
    "perft",
]

try:
    import gymnasium as _gymnasium  # noqa: F401
except ImportError:  # Gymnasium is optional: the rest of the package works without it.
    pass
else:
    from .env import register as _register

    _register()
