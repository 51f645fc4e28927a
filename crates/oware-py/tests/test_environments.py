"""The Gymnasium and PettingZoo environments."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import oware  # noqa: E402  (registers the environment)
from oware.env import OwareEnv  # noqa: E402


def play_randomly(env, rng, seed=None):
    obs, info = env.reset(seed=seed)
    steps, terminated, reward = 0, False, 0.0
    while not terminated:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        assert env.observation_space.contains(obs)
        steps += 1
    return steps, reward, info


def test_make_steps_with_action_masks():
    env = gymnasium.make("oware/Oware-v0")
    obs, info = env.reset(seed=3)
    assert obs.tolist() == oware.Position.initial().to_array().tolist()
    assert info["action_mask"].tolist() == [True] * 6
    obs, reward, terminated, truncated, info = env.step(5)
    assert obs.tolist() == oware.Position("4-4-4-4-4-0-5-5-5-5-4-4-0-0-N").to_array().tolist()
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["to_move"] == "north"
    steps, reward, info = play_randomly(env, np.random.default_rng(1))
    game = env.unwrapped.game()
    assert game.is_over() and not info["action_mask"].any()
    south, north = game.end.score
    # The reward is for the player who took the last action.
    last_mover = game.positions[-2].to_move
    assert reward == (south - north if last_mover == "south" else north - south)


def test_module_prefixed_id_imports_oware():
    env = gymnasium.make("oware:oware/Oware-v0", rules="awari")
    env.reset()
    assert env.unwrapped.position.rules == "awari"


def test_passes_gymnasiums_checker():
    from gymnasium.utils.env_checker import check_env

    check_env(gymnasium.make("oware/Oware-v0", render_mode="ansi").unwrapped, skip_render_check=False)
    check_env(OwareEnv(opponent="engine:1", opponent_movetime_ms=20))


def test_illegal_actions_and_bad_arguments_raise_value_error():
    env = gymnasium.make("oware/Oware-v0")
    env.reset()
    env.step(5)  # F
    env.step(0)  # a
    with pytest.raises(ValueError, match="that house is empty"):
        env.step(5)  # F again
    with pytest.raises(ValueError, match="engine:LEVEL"):
        OwareEnv(opponent="random")
    with pytest.raises(ValueError, match="level is 1 to 10"):
        OwareEnv(opponent="engine:11")
    with pytest.raises(ValueError, match="agent_side"):
        OwareEnv(opponent="engine:1", agent_side="east")


def test_against_the_engine_the_agent_always_moves():
    env = gymnasium.make("oware/Oware-v0", opponent="engine:2", opponent_movetime_ms=20)
    rng = np.random.default_rng(4)
    obs, info = env.reset(seed=4)
    terminated = False
    while not terminated:
        assert obs[14] == 0 and info["to_move"] == "south"
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, _, info = env.step(int(rng.choice(legal)))
    game = env.unwrapped.game()
    south, north = game.end.score
    assert reward == south - north


def test_engine_opens_when_the_agent_plays_north():
    env = gymnasium.make("oware/Oware-v0", opponent="engine:1", agent_side="north",
                         opponent_movetime_ms=20)
    obs, info = env.reset(seed=1)
    assert obs[14] == 1 and info["to_move"] == "north"
    assert len(env.unwrapped.game().moves) == 1


def test_reset_from_a_position_and_render():
    env = gymnasium.make("oware/Oware-v0", render_mode="ansi")
    obs, _ = env.reset(options={"start": "0-0-0-0-0-1-1-1-0-0-0-0-24-21-S"})
    assert obs[12] == 24
    obs, reward, terminated, _, _ = env.step(5)
    assert terminated and reward == 26 - 21
    assert "store 26" in env.render()
    with pytest.raises(ValueError, match="the game is over"):
        env.step(0)


def test_vector_env_steps_many_games_with_same_step_autoreset():
    envs = gymnasium.make_vec("oware/Oware-v0", num_envs=8)
    obs, info = envs.reset(seed=1)
    assert obs.shape == (8, 15) and info["action_mask"].shape == (8, 6)
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(300):
        actions = oware.batch.random_moves(info["action_mask"], rng)
        obs, rewards, terminations, truncations, info = envs.step(actions)
        assert not truncations.any()
        finished += int(terminations.sum())
        assert (obs[terminations] == oware.Position.initial().to_array()).all()
        assert (rewards[~terminations] == 0).all()
    assert finished > 0
    envs.close()


def test_pettingzoo_aec_api():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from oware.pettingzoo import env

    api_test(env(), num_cycles=300)
    game = env()
    game.reset(seed=2)
    rng = np.random.default_rng(2)
    totals = {"south": 0.0, "north": 0.0}
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            assert agent == ("south", "north")[observation["observation"][14]]
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        game.step(action)
    record = game.game()
    south, north = record.end.score
    assert totals == {"south": south - north, "north": north - south}
