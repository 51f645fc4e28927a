#!/usr/bin/env python3
"""Sparring partners for `oware match`: a one-ply greedy player and OpenSpiel's MCTS bot, both speaking
the engine protocol of `oware engine` (crates/oware-cli/src/cmd/engine.rs) on stdin/stdout.

Usage: openspiel_engine.py --self-test
       openspiel_engine.py --bot greedy [--seed S]
       openspiel_engine.py --bot mcts [--seed S] [--simulations N] [--uct-c C] [--rollouts R]

Both keep the game in an OpenSpiel `oware` state. OpenSpiel's oware cannot be set from a position
string, so `position startpos [moves <letters>]` is replayed move by move from the start, and
`position fen ...` is refused with `info string error: ...` (as is anything malformed or illegal; the
previous position is then kept). How OpenSpiel's actions map onto our letters is described in
openspiel_traces.py: player 0 is South and plays 'A'+action, player 1 is North and plays 'a'+action.
OpenSpiel plays abapa only, so `setoption name Rules value awari` is refused; other options (Hash,
Level, ...) are accepted and ignored.

- greedy: plays the legal move that captures the most seeds at once; ties are broken at random (from
  --seed). The capture is counted by a few lines of sowing below (ours, not OpenSpiel's, which sweeps
  the board into the stores when a move ends the game), cross-checked against OpenSpiel's stores after
  every move that does not end the game.
- mcts: `open_spiel.python.algorithms.mcts.MCTSBot` with a `RandomRolloutEvaluator`, a fixed number of
  simulations per move (`go movetime` is ignored: the bot's strength does not depend on the machine's
  load). Needs numpy and absl-py beside pyspiel.

`openspiel_engine.py --self-test` checks the adapter instead of playing: the greedy capture count
against OpenSpiel over random games, and that bad `position` commands are refused.

`go` is answered synchronously (there is nothing to stop), so `stop` and `ponderhit` do nothing.
"""

import argparse
import random
import sys

import pyspiel

NAME = "openspiel-sparring"


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def error(message):
    send(f"info string error: {message}")


def letter(player, action):
    return chr((ord("A") if player == 0 else ord("a")) + action)


def board_of(state):
    """Houses 0..11 (our index order, also OpenSpiel's) and the two stores."""
    _, score_field, seeds_field = state.observation_string(0).split(" | ")
    return [int(x) for x in seeds_field.split()], [int(x) for x in score_field.split()]


def capture_of(board, player, action):
    """Seeds captured by `player` sowing its house `action` from `board` (abapa: the origin house is
    skipped, captures of 2 or 3 run backwards through the opponent's row, a grand slam captures
    nothing)."""
    houses = list(board)
    origin = action + 6 * player
    seeds, houses[origin] = houses[origin], 0
    index = origin
    while seeds:
        index = (index + 1) % 12
        if index != origin:
            houses[index] += 1
            seeds -= 1
    opponent_row = range(6, 12) if player == 0 else range(0, 6)
    captured = 0
    taken = []
    while index in opponent_row and houses[index] in (2, 3):
        captured += houses[index]
        taken.append(index)
        index -= 1
    if all(houses[i] == 0 or i in taken for i in opponent_row):
        return 0  # grand slam: the move is played, nothing is captured
    return captured


class GreedyBot:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, state):
        player = state.current_player()
        board, stores = board_of(state)
        best, best_actions = -1, []
        for action in state.legal_actions():
            captured = capture_of(board, player, action)
            child = state.child(action)
            if not child.is_terminal():
                # Cross-check the sowing above against OpenSpiel's rules.
                _, child_stores = board_of(child)
                if child_stores[player] - stores[player] != captured:
                    raise RuntimeError(f"capture mismatch on {board} {stores} action {action}")
            if captured > best:
                best, best_actions = captured, [action]
            elif captured == best:
                best_actions.append(action)
        return self.rng.choice(best_actions)


class MctsBot:
    def __init__(self, game, seed, simulations, uct_c, rollouts):
        import numpy as np
        from open_spiel.python.algorithms import mcts

        evaluator = mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(seed))
        self.bot = mcts.MCTSBot(game, uct_c, simulations, evaluator, solve=True,
                                random_state=np.random.RandomState(seed + 1))

    def choose(self, state):
        return self.bot.step(state)


def parse_position(game, words):
    """The OpenSpiel state for the words after `position`, or raises ValueError."""
    if not words:
        raise ValueError("position: expected `startpos` or `fen <position-string>`")
    if words[0] == "fen":
        raise ValueError("position fen: OpenSpiel's oware cannot be set up from a position; "
                         "use startpos and moves")
    if words[0] != "startpos":
        raise ValueError("position: expected `startpos` or `fen <position-string>`")
    rest = words[1:]
    if rest and rest[0] != "moves":
        raise ValueError(f"position: expected `moves`, found {rest[0]!r}")
    letters = "".join(rest[1:])
    state = game.new_initial_state()
    for ply, ch in enumerate(letters):
        if state.is_terminal():
            raise ValueError(f"position moves: ply {ply + 1} ({ch}): the game is over")
        player = state.current_player()
        action = ord(ch) - (ord("A") if player == 0 else ord("a"))
        if not 0 <= action < 6:
            raise ValueError(f"position moves: ply {ply + 1}: {ch!r} is not a house of the side "
                             "to move")
        if action not in state.legal_actions():
            raise ValueError(f"position moves: ply {ply + 1}: {ch} is illegal")
        state.apply_action(action)
    return state


def self_test(games=300, seed=7):
    """Raises if the greedy capture count or the position parsing disagrees with OpenSpiel."""
    game = pyspiel.load_game("oware")
    bot, rng, positions = GreedyBot(seed), random.Random(seed), 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal() and state.move_number() < 900:
            bot.choose(state)  # raises on a capture mismatch
            positions += 1
            state.apply_action(rng.choice(state.legal_actions()))
    state = parse_position(game, ["startpos", "moves", "F", "fE"])
    if str(state) != str(parse_position(game, ["startpos", "moves", "FfE"])):
        raise RuntimeError("split and concatenated move letters disagree")
    for bad in (["fen", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"], ["startpos", "moves", "FF"],
                ["startpos", "moves", "Fz"], ["startpos", "FfE"], [], ["sideways"]):
        try:
            parse_position(game, bad)
        except ValueError:
            continue
        raise RuntimeError(f"position {' '.join(bad)} was accepted")
    print(f"openspiel_engine.py self-test: {positions} greedy choices checked against OpenSpiel")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bot", choices=["greedy", "mcts"])
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--rollouts", type=int, default=1)
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if args.bot is None:
        parser.error("--bot is required")

    game = pyspiel.load_game("oware")
    if args.bot == "greedy":
        bot, name = GreedyBot(args.seed), f"greedy-1ply seed {args.seed}"
    else:
        bot = MctsBot(game, args.seed, args.simulations, args.uct_c, args.rollouts)
        name = (f"openspiel-mcts sims {args.simulations} uct_c {args.uct_c} "
                f"rollouts {args.rollouts} seed {args.seed}")
    state = game.new_initial_state()

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command, rest = words[0], words[1:]
        if command == "uci":
            send(f"id name {name}")
            send(f"id author {NAME} (tests/oracle/openspiel_engine.py)")
            send("option name Rules type combo default abapa var abapa")
            send("uciok")
        elif command == "isready":
            send("readyok")
        elif command == "setoption":
            text = " ".join(rest)
            if text.lower().startswith("name rules value") and text.split()[-1] != "abapa":
                error(f"setoption: only abapa is played here, not {text.split()[-1]!r}")
        elif command == "ucinewgame":
            state = game.new_initial_state()
        elif command == "position":
            try:
                state = parse_position(game, rest)
            except ValueError as e:
                error(str(e))
        elif command == "go":
            if state.is_terminal():
                send("bestmove 0000")
            else:
                player = state.current_player()
                send(f"bestmove {letter(player, bot.choose(state))}")
        elif command in ("stop", "ponderhit"):
            pass
        elif command == "quit":
            break
        else:
            error(f"unknown command {command!r}")


if __name__ == "__main__":
    main()
