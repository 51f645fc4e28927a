"""Gymnasium environments: ``oware/Oware-v0``, one game for an agent, and its vectorised form.

``gymnasium.make("oware/Oware-v0", rules="abapa", opponent=None)``:

- **observation**: ``int8`` array of 15 values, the 12 houses (South's ``A``-``F``, then North's
  ``a``-``f``), South's and North's stores, and the side to move (0 South, 1 North); always in
  this absolute orientation, whoever is to move.
- **action**: ``Discrete(6)``, a column of the mover's own row (``A+c`` for South, ``a+c`` for
  North). ``info["action_mask"]`` (6 ``bool``) says which are legal; an illegal action raises
  ``ValueError`` with the rules' reason.
- **opponent**: ``None``, the agent plays both sides in turn (self-play; ``info["to_move"]`` and
  the observation's last value say whose turn it is); or ``"engine:LEVEL"`` (1-10), the engine
  answers every move of the agent, who plays ``agent_side`` (``"south"`` by default; with
  ``"north"`` the engine opens), thinking ``opponent_movetime_ms`` at most per move.
- **reward**: 0 until the game ends; on the step that ends it, the final seed difference for the
  player who took the action (their score minus the opponent's, in seeds; the end follows the
  rules exactly, repetitions included, so with an opponent the engine's reply may end the game).
  Between -48 and 48.
- **termination**: the game is over; never truncated (the rules end every game), unless
  ``max_episode_steps`` is given to ``gymnasium.make``.

``gymnasium.make_vec("oware/Oware-v0", num_envs=N)`` gives ``OwareVectorEnv``: N self-play games
stepped in one call of the batched API, with same-step autoreset.
"""

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from ._oware import EnvCore, Position
from .batch import Games

__all__ = ["OwareEnv", "OwareVectorEnv", "register", "render_position"]

ENV_ID = "oware/Oware-v0"


def _opponent_level(opponent):
    if opponent is None:
        return None
    prefix = "engine:"
    if isinstance(opponent, str) and opponent.startswith(prefix):
        level = opponent[len(prefix):]
        if level.isdigit():
            return int(level)
    raise ValueError(f"opponent is None or 'engine:LEVEL' with LEVEL 1-10, not {opponent!r}")


def _start_position(start, rules):
    if start is None or isinstance(start, Position):
        return start
    return Position(start, rules)


def render_position(position):
    """A board diagram of ``position`` (a ``Position``), as the ``oware show`` command draws it
    (``Position.diagram()``)."""
    return position.diagram()


class OwareEnv(gymnasium.Env):
    """One game of oware for an agent: see the module for the spaces, the opponent and the reward.

    ``reset(options={"start": position})`` starts from a given position (a ``Position`` or a
    position string)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 2}

    def __init__(self, rules="abapa", opponent=None, agent_side="south",
                 opponent_movetime_ms=100, render_mode=None):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self._core = EnvCore(rules, _opponent_level(opponent), opponent_movetime_ms, agent_side, 0)
        self.observation_space = spaces.Box(low=0, high=48, shape=(15,), dtype=np.int8)
        self.action_space = spaces.Discrete(6)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        start = _start_position((options or {}).get("start"), self.rules)
        noise_seed = int(self.np_random.integers(2**63))
        obs, _, _, mask = self._core.reset(start, noise_seed)
        if self.render_mode == "human":
            print(self.render_text())
        return obs, {"action_mask": mask, "to_move": self._core.to_move}

    def step(self, action):
        obs, reward, terminated, mask = self._core.step(action)
        if self.render_mode == "human":
            print(self.render_text())
        return obs, reward, terminated, False, {"action_mask": mask, "to_move": self._core.to_move}

    def render_text(self):
        """The board as text."""
        return render_position(self._core.position)

    def render(self):
        if self.render_mode == "ansi":
            return self.render_text()
        return None

    @property
    def position(self):
        """The current ``Position``."""
        return self._core.position

    def game(self):
        """A copy of the game so far (a ``Game``: ``str()`` gives its OGN record)."""
        return self._core.game()


class OwareVectorEnv(VectorEnv):
    """``num_envs`` self-play games of oware stepped together in Rust (``oware.batch.Games``).

    Observations ``(num_envs, 15)`` ``int8``, actions ``(num_envs,)`` columns, rewards, terminations
    and ``info["action_mask"]`` ``(num_envs, 6)`` as in ``OwareEnv``. A game that ends is started
    again in the same step (``AutoresetMode.SAME_STEP``): its observation and mask are then those
    of the new game."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs=1, rules="abapa", opponent=None, max_episode_steps=None):
        if opponent is not None:
            raise ValueError("the vectorised environment is self-play only: opponent must be None")
        if max_episode_steps is not None:
            raise ValueError("the vectorised environment does not truncate games")
        self.num_envs = num_envs
        self.rules = rules
        self._games = Games(num_envs, rules)
        self.single_observation_space = spaces.Box(low=0, high=48, shape=(15,), dtype=np.int8)
        self.single_action_space = spaces.Discrete(6)
        self.observation_space = spaces.Box(low=0, high=48, shape=(num_envs, 15), dtype=np.int8)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, 6))
        self._truncated = np.zeros(num_envs, dtype=bool)

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
        self._games.reset()
        return self._games.positions(), {"action_mask": self._games.legal_mask()}

    def step(self, actions):
        obs, rewards, dones, masks = self._games.step(
            np.ascontiguousarray(actions, dtype=np.int64), True)
        return obs, rewards, dones, self._truncated.copy(), {"action_mask": masks}


def register():
    """Registers ``oware/Oware-v0`` with Gymnasium (done on ``import oware``)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point="oware.env:OwareEnv",
            vector_entry_point="oware.env:OwareVectorEnv",
        )
