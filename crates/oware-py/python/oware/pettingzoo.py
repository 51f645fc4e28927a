"""A PettingZoo AEC environment: two agents, ``"south"`` and ``"north"``, take turns.

>>> from oware.pettingzoo import env
>>> game = env(rules="abapa")
>>> game.reset(seed=1)
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     action = None if termination or truncation else int(observation["action_mask"].argmax())
...     game.step(action)

Each observation is ``{"observation": int8[15], "action_mask": int8[6]}``: the board as in the
Gymnasium environment (12 houses, 2 stores, side to move; the same absolute orientation for both
agents) and the legal columns of the agent's own row (all zero when it is not to move). An action
is a column 0-5 of the agent's row. Rewards come at the end: each agent gets its final seed
difference (its score minus the opponent's); the rules end every game (repetitions included), so
nothing is truncated. Needs ``pettingzoo`` (``pip install pettingzoo``).
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._oware import Game
from .env import render_position

__all__ = ["OwareAECEnv", "env"]

_COLUMNS = "ABCDEF"


def env(rules="abapa", render_mode=None):
    """The AEC environment (PettingZoo's ``env()`` convention)."""
    return OwareAECEnv(rules=rules, render_mode=render_mode)


class OwareAECEnv(AECEnv):
    """Oware for two agents, ``"south"`` (moves first) and ``"north"``: see the module."""

    metadata = {"render_modes": ["ansi", "human"], "name": "oware_v0", "is_parallelizable": False,
                "render_fps": 2}

    def __init__(self, rules="abapa", render_mode=None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.possible_agents = ["south", "north"]
        self.agents = self.possible_agents[:]
        board = spaces.Box(low=0, high=48, shape=(15,), dtype=np.int8)
        mask = spaces.Box(low=0, high=1, shape=(6,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": board, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(6) for a in self.possible_agents}
        self._game = Game(rules)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        mask = np.zeros(6, dtype=np.int8)
        if agent == self._game.position.to_move:
            for move in self._game.legal_moves():
                mask[_COLUMNS.index(move.upper())] = 1
        return {"observation": self._game.position.to_array(), "action_mask": mask}

    def reset(self, seed=None, options=None):
        self._game = Game(self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._game.position.to_move

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self._game.play(int(action))
        end = self._game.end
        if end is not None:
            south, north = end.score
            self.rewards = {"south": south - north, "north": north - south}
            self.terminations = {a: True for a in self.agents}
            # Both agents see the end: the other one first.
            self.agent_selection = "north" if agent == "south" else "south"
        else:
            self.rewards = {a: 0 for a in self.agents}
            self.agent_selection = self._game.position.to_move
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self):
        if self.render_mode is None:
            return None
        return render_position(self._game.position)

    def game(self):
        """A copy of the game so far (``str()`` gives its OGN record)."""
        return self._game.copy()

    def close(self):
        pass
