"""Our rules as OpenSpiel games, for OpenSpiel's algorithms (MCTS, AlphaZero, evaluation tools).

``import oware.openspiel`` registers two Python games with ``pyspiel``:

- ``oware_abapa``: abapa, the rules of OpenSpiel's own ``oware``, played by our rules crate
  (repetitions included: a position that recurs since the last capture ends the game);
- ``oware_awari``: awari (a move must feed an opponent whose row is empty when one can; seeds left
  at a repetition are split evenly), which OpenSpiel does not have.

>>> import pyspiel, oware.openspiel
>>> game = pyspiel.load_game("oware_awari")
>>> state = game.new_initial_state()
>>> state.legal_actions(), state.action_to_string(0, 5)
([0, 1, 2, 3, 4, 5], 'F')

OpenSpiel's conventions, as its ``oware`` has them: player 0 is South, player 1 North; an action is
a column 0-5 of the mover's own row (``A+c`` for South, ``a+c`` for North, the letters
``action_to_string`` gives); the returns at the end are +1 for the winner, -1 for the loser, 0
each for a draw (a final score of 24-24, or equal halves under awari). The observation tensor is
OpenSpiel's ``oware``'s: 14 ``float32`` values, the seeds of the 12 houses (South's ``A``-``F``,
then North's ``a``-``f``) and of South's and North's stores, each divided by 48, the same for
both players (whose turn it is is ``current_player()``). The observation string is the position
in the project's notation (``4-4-4-4-4-4-4-4-4-4-4-4-0-0-S``); the information state string
is the start position followed by the moves played (``4-4-...-0-0-S FfEa``).

The game parameter ``start`` (a position string; empty, the default, for the usual start) starts
every game from that position, with no earlier history: ``pyspiel.load_game("oware_awari",
{"start": "0-0-0-1-0-2-0-2-0-0-0-0-22-21-S"})``. ``OwareGame.new_initial_state(start)`` does it
for one state.

For OpenSpiel's ``MCTSBot``, two evaluators on our crates: ``DatabaseEvaluator`` (exact values
from the endgame databases where they cover the position) and ``EngineEvaluator`` (a search of our
engine to a given depth). Both have the ``evaluate``/``prior`` methods ``MCTSBot`` calls, and work
on the states of these games only. Importing this module needs ``pyspiel`` (``pip install
open_spiel``) and nothing else of OpenSpiel; ``MCTSBot`` itself comes from
``open_spiel.python.algorithms.mcts``, which also needs ``absl-py``.
"""

import math

import numpy as np
import pyspiel

from ._oware import Engine, Game, Position

__all__ = [
    "DatabaseEvaluator",
    "EngineEvaluator",
    "OwareGame",
    "OwareState",
    "RandomRolloutEvaluator",
    "database_outcome",
]

_TOTAL_SEEDS = 48
_HALF_SEEDS = 24
_COLUMNS = ("ABCDEF", "abcdef")
_NUM_PLAYERS = 2
# OpenSpiel asks for a bound on a game's length; our rules have none but the repetition rule,
# which ends every game long after any real one. 1000 is the cap of OpenSpiel's own oware, a
# hint for algorithms that size buffers: our games are not cut there (random games end within
# a few hundred plies).
_MAX_GAME_LENGTH = 1000
_OBSERVATION_SIZE = 14


def _game_type(rules):
    return pyspiel.GameType(
        short_name=f"oware_{rules}",
        long_name=f"Oware ({rules}), the oware project's rules",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_NUM_PLAYERS,
        min_num_players=_NUM_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"start": ""},
    )


_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=6,
    max_chance_outcomes=0,
    num_players=_NUM_PLAYERS,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=_MAX_GAME_LENGTH,
)


def _player(side):
    return 0 if side == "south" else 1


def _returns_of_winner(winner):
    """OpenSpiel's returns for a finished game whose winner is ``winner`` (a side or None)."""
    if winner is None:
        return [0.0, 0.0]
    return [1.0, -1.0] if winner == "south" else [-1.0, 1.0]


def _returns_for(player, value):
    """Returns of both players when ``player``'s is ``value`` (zero-sum), as ``MCTSBot`` wants."""
    out = np.empty(_NUM_PLAYERS)
    out[player] = value
    out[1 - player] = -value
    return out


class OwareGame(pyspiel.Game):
    """One of our rule sets as an OpenSpiel game (``pyspiel.load_game("oware_abapa")`` or
    ``"oware_awari"``); see the module."""

    def __init__(self, rules, params=None):
        params = dict(params or {})
        super().__init__(_game_type(rules), _GAME_INFO, params)
        self.rules = rules
        start = params.get("start", "")
        # Checked here, so that a bad parameter fails at load_game, not at the first state.
        self._start = Position(start, rules) if start else Position.initial(rules)

    def new_initial_state(self, start=None):
        """A state at the game's start, or at ``start`` (a ``Position`` or a position string)
        with no earlier history."""
        if start is None:
            start = self._start
        return OwareState(self, Game(self.rules, start))

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer OpenSpiel asks for: the observation (tensor and string) or, with perfect
        recall, the information state (a string)."""
        if params:
            raise ValueError(f"the observer takes no parameters, given {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _HistoryObserver() if perfect_recall else _BoardObserver()


class _AbapaGame(OwareGame):
    def __init__(self, params=None):
        super().__init__("abapa", params)


class _AwariGame(OwareGame):
    def __init__(self, params=None):
        super().__init__("awari", params)


class OwareState(pyspiel.State):
    """A game in progress: an ``oware.Game`` (its history decides repetitions) under OpenSpiel's
    interface. ``game()`` gives a copy of it."""

    def __init__(self, game, oware_game):
        super().__init__(game)
        self._oware = oware_game

    def current_player(self):
        if self._oware.is_over():
            return pyspiel.PlayerId.TERMINAL
        return _player(self._oware.position.to_move)

    def _legal_actions(self, player):
        # Letters in house order: the columns come out sorted, as OpenSpiel wants.
        return ["ABCDEF".index(m.upper()) for m in self._oware.legal_moves()]

    def _apply_action(self, action):
        self._oware.play(int(action))

    def _action_to_string(self, player, action):
        return _COLUMNS[player][action]

    def is_terminal(self):
        return self._oware.is_over()

    def returns(self):
        end = self._oware.end
        return [0.0, 0.0] if end is None else _returns_of_winner(end.winner)

    def game(self):
        """A copy of the game so far (an ``oware.Game``: ``str()`` gives its OGN record)."""
        return self._oware.copy()

    @property
    def position(self):
        """The current ``oware.Position``."""
        return self._oware.position

    def __str__(self):
        return str(self._oware.position)


class _BoardObserver:
    """OpenSpiel's observation: the tensor of OpenSpiel's oware, the position string."""

    def __init__(self):
        self.tensor = np.zeros(_OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        seeds = state.position.to_array()[:_OBSERVATION_SIZE]
        self.tensor[:] = seeds.astype(np.float32) / np.float32(_TOTAL_SEEDS)

    def string_from(self, state, player):
        return str(state.position)


class _HistoryObserver:
    """OpenSpiel's information state (perfect recall): the start and every move since."""

    def __init__(self):
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        game = state._oware
        return f"{game.start} {''.join(game.moves)}".rstrip()


def database_outcome(position, value):
    """The game's result for the side to move of ``position`` (+1 win, 0 draw, -1 loss) that the
    databases' ``value`` (``Tablebase.probe(position)``) proves, or ``None`` when its bounds leave
    it open (abapa). The databases assume no earlier history: a repetition in the game played so
    far is not seen."""
    mover = 0 if position.to_move == "south" else 1
    mine, theirs = position.stores[mover], position.stores[1 - mover]
    if position.rules == "awari":
        # Awari: the seed difference of the board's seeds, added to the stores' difference.
        low, high = mine - theirs + value.lower, mine - theirs + value.upper
        zero = 0
    else:
        # Abapa: the seeds of the board the mover ends with. Every end leaves the mover above
        # 24 (a win), at 24 (a draw: the other player cannot be above) or below (a loss).
        low, high = mine + value.lower, mine + value.upper
        zero = _HALF_SEEDS
    if low > zero:
        return 1
    if high < zero:
        return -1
    if low == high == zero:
        return 0
    return None


def _uniform_prior(state):
    actions = state.legal_actions()
    return [(a, 1.0 / len(actions)) for a in actions]


class RandomRolloutEvaluator:
    """Random playouts to the end on our rules (an ``oware.Game`` copy, without OpenSpiel's
    state clones), averaged over ``n_rollouts``; uniform priors. The fallback of
    ``DatabaseEvaluator`` where the databases do not decide."""

    def __init__(self, n_rollouts=1, seed=None):
        self.n_rollouts = n_rollouts
        self._rng = np.random.default_rng(seed)

    def evaluate(self, state):
        total = np.zeros(_NUM_PLAYERS)
        for _ in range(self.n_rollouts):
            game = state._oware.copy()
            while not game.is_over():
                moves = game.legal_moves()
                game.play(moves[self._rng.integers(len(moves))])
            total += _returns_of_winner(game.end.winner)
        return total / self.n_rollouts

    def prior(self, state):
        return _uniform_prior(state)


class DatabaseEvaluator:
    """An evaluator for OpenSpiel's ``MCTSBot`` that answers from our endgame databases: where
    they cover the position (``tablebase.max_seeds`` seeds on the board at most) and prove its
    result, the exact returns (+1, 0, -1); elsewhere, ``fallback``'s evaluation (default random
    playouts on our rules, ``RandomRolloutEvaluator(seed=seed)``). Priors are uniform.

    ``tablebase`` is an ``oware.Tablebase`` of the game's rule set. The databases assume no
    earlier history, so a repetition coming from the game's own past is left to the search.
    ``hits`` and ``misses`` count the evaluations answered by the databases and by the fallback."""

    def __init__(self, tablebase, fallback=None, seed=None):
        self.tablebase = tablebase
        self.fallback = fallback if fallback is not None else RandomRolloutEvaluator(seed=seed)
        self.hits = 0
        self.misses = 0

    def outcome(self, state):
        """The result the databases prove for the player to move in ``state``, or ``None``."""
        position = state.position
        if position.board_seeds > self.tablebase.max_seeds:
            return None
        value = self.tablebase.probe(position)
        return None if value is None else database_outcome(position, value)

    def evaluate(self, state):
        outcome = self.outcome(state)
        if outcome is None:
            self.misses += 1
            return self.fallback.evaluate(state)
        self.hits += 1
        return _returns_for(state.current_player(), float(outcome))

    def prior(self, state):
        return _uniform_prior(state)


class EngineEvaluator:
    """An evaluator for OpenSpiel's ``MCTSBot`` from a search of our engine to ``depth`` plies
    (the game's history counts for repetitions): a proven win or loss is +1 or -1; any other
    score, ``s`` centiseeds for the player to move, is ``tanh(s / (100 * seeds_scale))``, so
    that a lead of ``seeds_scale`` seeds is worth 0.76. Priors are uniform.

    ``engine`` is an ``oware.Engine`` (default one thread, a 16 MiB table); give it databases
    (``Engine(egtb=...)``) and it uses them too."""

    # Beyond this, an engine score is a win or a loss (the engine's ±29 000).
    _DECIDED = 29_000

    def __init__(self, depth=4, engine=None, seeds_scale=4.0):
        if depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        self.depth = depth
        self.engine = engine if engine is not None else Engine(threads=1, hash_mb=16)
        self.seeds_scale = seeds_scale

    def value(self, state):
        """The value in [-1, 1] for the player to move in ``state``."""
        score = self.engine.search(state._oware, depth=self.depth).score
        if abs(score) > self._DECIDED:
            return math.copysign(1.0, score)
        return math.tanh(score / (100.0 * self.seeds_scale))

    def evaluate(self, state):
        return _returns_for(state.current_player(), self.value(state))

    def prior(self, state):
        return _uniform_prior(state)


def _register():
    registered = set(pyspiel.registered_names())
    for game_class, rules in ((_AbapaGame, "abapa"), (_AwariGame, "awari")):
        game_type = _game_type(rules)
        if game_type.short_name not in registered:
            pyspiel.register_game(game_type, game_class)


_register()
