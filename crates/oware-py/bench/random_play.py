#!/usr/bin/env python3
"""Random-play steps per second of oware through OpenSpiel's Python oware (pyspiel), through our
Gymnasium environment (one game, and the vectorised form), and through the batched API, in one
run, with the ratios to OpenSpiel.

Every way plays uniformly random legal moves under abapa (OpenSpiel's rules), starting a new game
whenever one ends; a step is one move. The move choice is counted: it is part of what a random
agent costs through each interface (a Python list for OpenSpiel and the single environment,
numpy over the mask for the batched ways).

The last row is the limit: the rules' own step in Rust on one thread (legal moves, a random choice,
the move, on packed positions), without numpy or Python. The batched ways split a batch of 2048
rows or more across cores (rayon; RAYON_NUM_THREADS sets the number of threads).

Usage: random_play.py [--seconds S] [--batch N]
"""

import argparse
import random
import time

import numpy as np

import oware


def timed(seconds, run):
    """Calls run() (which returns the steps it played) until `seconds` have passed."""
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += run()
    return steps / (time.perf_counter() - start)


def openspiel(seconds):
    import pyspiel

    game = pyspiel.load_game("oware")
    rng = random.Random(1)

    def run():
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return timed(seconds, run)


def gym_env(seconds):
    import gymnasium

    env = gymnasium.make("oware/Oware-v0")
    rng = random.Random(1)

    def run():
        _, info = env.reset()
        steps = 0
        terminated = False
        while not terminated:
            mask = info["action_mask"].tolist()
            action = rng.choice([i for i in range(6) if mask[i]])
            _, _, terminated, _, info = env.step(action)
            steps += 1
        return steps

    return timed(seconds, run)


def gym_vector_env(seconds, n):
    import gymnasium

    envs = gymnasium.make_vec("oware/Oware-v0", num_envs=n)
    rng = np.random.default_rng(1)
    _, info = envs.reset(seed=1)
    state = {"mask": info["action_mask"]}

    def run():
        actions = oware.batch.random_moves(state["mask"], rng)
        _, _, _, _, info = envs.step(actions)
        state["mask"] = info["action_mask"]
        return n

    return timed(seconds, run)


def batch_step(seconds, n):
    rng = np.random.default_rng(1)
    state = {"positions": oware.batch.initial(n)}
    state["mask"] = oware.batch.legal_mask(state["positions"])

    def run():
        moves = oware.batch.random_moves(state["mask"], rng)
        state["positions"], _, _, state["mask"] = oware.batch.step(
            state["positions"], moves, autoreset=True)
        return n

    return timed(seconds, run)


def batch_games(seconds, n):
    rng = np.random.default_rng(1)
    games = oware.batch.Games(n)
    state = {"mask": games.legal_mask()}

    def run():
        moves = oware.batch.random_moves(state["mask"], rng)
        _, _, _, state["mask"] = games.step(moves)
        return n

    return timed(seconds, run)


def rules_limit(seconds):
    """The rules' own step in Rust on one thread: random play on packed positions, no Python."""
    from oware._oware import _rules_random_play

    steps = 1_000_000
    while _rules_random_play(steps, "abapa", 1) < seconds / 4:
        steps *= 2
    elapsed = sum(_rules_random_play(steps, "abapa", k) for k in range(4))
    return 4 * steps / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each way (default 3)")
    parser.add_argument("--batch", type=int, default=4096, help="rows per batched call (default 4096)")
    args = parser.parse_args()
    s, n = args.seconds, args.batch
    rows = [
        ("OpenSpiel pyspiel (apply_action, legal_actions)", openspiel(s)),
        ("Gymnasium env, gymnasium.make('oware/Oware-v0')", gym_env(s)),
        (f"Gymnasium vector env, make_vec(num_envs={n})", gym_vector_env(s, n)),
        (f"batch API, oware.batch.step over {n} positions", batch_step(s, n)),
        (f"batch API, oware.batch.Games({n}).step (with history)", batch_games(s, n)),
        ("the rules' own step in Rust, one thread (the limit)", rules_limit(s)),
    ]
    base = rows[0][1]
    print(f"{'way':58} {'steps/s':>14} {'ns/step':>8} {'x OpenSpiel':>12}")
    for name, rate in rows:
        print(f"{name:58} {rate:14,.0f} {1e9 / rate:8.1f} {rate / base:12.1f}")


if __name__ == "__main__":
    main()
