"""Differential test against OpenSpiel's Python oware (pyspiel), an independent implementation of
abapa: random games played in both, compared ply by ply (legal moves, the position after each
move, whether the game is over) and at the end (the final stores and the returns).

OpenSpiel's conventions, as tests/oracle/openspiel_traces.py describes them for the Rust side:
player 0 is South, player 1 North; its board is in our house order; an action is a column of the
mover's row (our environments' actions). At the end of a game OpenSpiel gathers each row into its
owner's store, also after a capture above 24 where abapa leaves the seeds on the board: so its
final stores are compared with our last position gathered, and its returns (+1 win, -1 loss, 0
draw) with the winner of our score. Its 1000-ply cap is not a rule: a game that reaches it is
compared that far.
"""

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
gymnasium = pytest.importorskip("gymnasium")

import oware  # noqa: E402

GAMES = 400


def openspiel_view(state):
    """(houses, stores, player to move or None when terminal, legal columns)."""
    player, stores, seeds = state.observation_string(0).split(" | ")
    houses = [int(x) for x in seeds.split()]
    stores = tuple(int(x) for x in stores.split())
    to_move = None if state.is_terminal() else ("south", "north")[int(player)]
    return houses, stores, to_move, sorted(state.legal_actions())


def columns(moves):
    return sorted("ABCDEF".index(m.upper()) for m in moves)


def test_random_games_agree_with_openspiel():
    spiel_game = pyspiel.load_game("oware")
    rng = random.Random(20261122)
    env = gymnasium.make("oware/Oware-v0")
    ends, plies = set(), 0
    for index in range(GAMES):
        state = spiel_game.new_initial_state()
        game = oware.Game()
        _, info = env.reset()
        reward = 0.0
        while not state.is_terminal() and len(game) < spiel_game.max_game_length():
            houses, stores, to_move, legal = openspiel_view(state)
            where = f"game {index} after {game.moves}"
            assert game.position.houses == houses, where
            assert game.position.stores == stores, where
            assert game.position.to_move == to_move, where
            assert columns(game.legal_moves()) == legal, where
            assert [c for c in range(6) if info["action_mask"][c]] == legal, where
            action = rng.choice(legal)
            state.apply_action(action)
            game.play(action)
            _, reward, terminated, _, info = env.step(action)
            assert game.is_over() == state.is_terminal() == terminated, where
            plies += 1
        if not state.is_terminal():
            continue  # OpenSpiel's cap, not a rule: compared this far
        ends.add(game.end.reason)
        houses, stores, _, legal = openspiel_view(state)
        last = game.position
        gathered = (last.stores[0] + sum(last.houses[:6]), last.stores[1] + sum(last.houses[6:]))
        assert houses == [0] * 12 and legal == []
        assert stores == gathered, f"game {index}: final stores"
        returns = [int(r) for r in state.returns()]
        winner = {"south": [1, -1], "north": [-1, 1], None: [0, 0]}[game.end.winner]
        assert returns == winner, f"game {index}: returns"
        # The environment's last reward is the last mover's seed difference: same winner.
        last_mover = game.positions[-2].to_move
        mover_return = returns[0] if last_mover == "south" else returns[1]
        assert (reward > 0) - (reward < 0) == mover_return, f"game {index}: reward"
    # The comparison went through the rules' corners: each way a random game ends.
    assert {"capture", "repetition", "no-moves"} <= ends
    assert plies > 10_000
