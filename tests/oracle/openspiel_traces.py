#!/usr/bin/env python3
"""Plays random games of oware in OpenSpiel and writes them as JSON lines, one game per line, for the
differential test in crates/oware-oracle (tests/openspiel.rs).

Usage: openspiel_traces.py --games N --seed S --out FILE

OpenSpiel's conventions, read from its source (open_spiel/games/oware/oware.{h,cc} and oware_board.*,
version 2.0.2), and how they map onto ours (docs/rules.md):

- Players: player 0 moves first and is our South; player 1 is our North.
- Board: `seeds[0..12]`, player 0's houses then player 1's, counter-clockwise (the sowing order). That
  is exactly our index order: 0..5 = A..F (South), 6..11 = a..f (North). OpenSpiel's own labels agree
  (ActionToString gives 'A'+i for player 0 and 'a'+i for player 1).
- Actions: 0..5, the house within the mover's own row: our move letter is 'A'+action for South and
  'a'+action for North.
- Sowing skips the origin house on every lap; captures run clockwise from the last house while in the
  opponent's row and 2 or 3; a grand slam captures nothing; if the opponent's row is empty only moves
  that reach it are legal. All as in our abapa.
- End of the game, as OpenSpiel decides it, and how it shows in this trace:
  * a score above 24 (or both 24): OpenSpiel is terminal at once. It then also finds no legal actions
    and *sweeps the seeds left on the board into their owners' stores* (CollectAndTerminate). Our abapa
    leaves them on the board and scores the stores alone. The trace records what OpenSpiel shows (an
    empty board, swept scores); the checker normalises by comparing OpenSpiel's scores with our final
    position gathered, and our own score with our stores. The sweep never changes the winner: the
    player above 24 stays above 24.
  * a board (houses, stores, side to move) seen before since the last capture: OpenSpiel collects each
    row into its owner's store. Its set of boards is cleared on every capture, so the stores never
    differ inside it: the same test as ours (houses and side since the last capture, start included).
  * the player to move has no legal action: each row is collected into its owner's store, as ours.
  In every case OpenSpiel's terminal board is empty, and OpenSpiel does not say which of these ended
  the game: the checker verifies our reason against what it implies (see the checker).
- OpenSpiel's MaxGameLength (1000 plies) is not a rule: applying an action after 1000 plies fails a
  SPIEL_CHECK. A game that reaches it unfinished is written with "truncated": true and compared only
  that far (random games almost never get there: the longest in 3000 is ~300 plies).

Output: a header line, then one line per game:
  {"format": "oware-openspiel-traces/1", "openspiel_version": "...", "seed": S, "games": N}
  {"game": i, "actions": [a0, a1, ...], "states": [st0, st1, ...], "truncated": false,
   "returns": [r0, r1]}
where states[k] is OpenSpiel's state after k actions (states[0] is the start), written as one flat
array of 16 integers to keep the committed fixture small:
  [h0, ..., h11, store0, store1, to_move, legal_mask]
h0..h11 the houses in our index order, store0/store1 South's and North's stores, to_move 0, 1 or -4
(OpenSpiel's terminal player id), and bit i of legal_mask set when action i is legal.
and "returns" are OpenSpiel's returns of the last state (+1 win, -1 loss, 0 draw; all zero unless the
game is over). Board and stores are parsed from OpenSpiel's observation string
("player | score0 score1 | seeds...") and checked against its observation tensor.
"""

import argparse
import json
import random
import sys

import pyspiel

FORMAT = "oware-openspiel-traces/1"
TERMINAL = int(pyspiel.PlayerId.TERMINAL)  # -4, as the checker expects


def snapshot(state):
    """OpenSpiel's view of one state, in our index order (which is also OpenSpiel's)."""
    player_field, score_field, seeds_field = state.observation_string(0).split(" | ")
    board = [int(x) for x in seeds_field.split()]
    stores = [int(x) for x in score_field.split()]
    if len(board) != 12 or len(stores) != 2 or int(player_field) not in (0, 1):
        raise ValueError(f"unexpected OpenSpiel observation {state.observation_string(0)!r}")
    # The tensor is the same data scaled by 1/48: a cross-check of the string parsing.
    tensor = state.observation_tensor(0)
    if [round(v * 48) for v in tensor] != board + stores:
        raise ValueError(f"observation string and tensor disagree: {state.observation_string(0)!r}")
    to_move = int(state.current_player())
    if to_move not in (0, 1, TERMINAL):
        raise ValueError(f"unexpected player to move {to_move}")
    legal_mask = sum(1 << action for action in state.legal_actions())
    return board + stores + [to_move, legal_mask]


def play_game(game, rng):
    state = game.new_initial_state()
    actions = []
    states = [snapshot(state)]
    limit = game.max_game_length()
    while not state.is_terminal() and len(actions) < limit:
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        actions.append(action)
        states.append(snapshot(state))
    return {
        "actions": actions,
        "states": states,
        "truncated": not state.is_terminal(),
        "returns": [int(r) for r in state.returns()],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True, help="output file, or - for stdout")
    args = parser.parse_args()

    version = getattr(pyspiel, "__version__", "unknown")
    game = pyspiel.load_game("oware")
    rng = random.Random(args.seed)
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")
    with out:
        header = {"format": FORMAT, "openspiel_version": version, "seed": args.seed,
                  "games": args.games}
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        plies = 0
        for index in range(args.games):
            record = {"game": index, **play_game(game, rng)}
            plies += len(record["actions"])
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
    print(f"openspiel {version}: wrote {args.games} games, {plies} plies", file=sys.stderr)


if __name__ == "__main__":
    main()
