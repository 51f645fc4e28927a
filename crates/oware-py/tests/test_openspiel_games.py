"""``oware.openspiel``: our rule sets as pyspiel games, checked against OpenSpiel's own oware, under
OpenSpiel's MCTS, and the evaluators on our databases and engine."""

import random
from types import SimpleNamespace

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

import oware  # noqa: E402
import oware.openspiel as ows  # noqa: E402

GAMES = 150


def test_games_are_registered_with_openspiels_conventions():
    for rules in ("abapa", "awari"):
        game = pyspiel.load_game(f"oware_{rules}")
        assert game.num_players() == 2 and game.num_distinct_actions() == 6
        assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
        assert game.observation_tensor_shape() == [14]
        state = game.new_initial_state()
        assert state.current_player() == 0 and state.legal_actions() == list(range(6))
        assert [state.action_to_string(0, a) for a in range(6)] == list("ABCDEF")
        assert [state.action_to_string(1, a) for a in range(6)] == list("abcdef")
        state.apply_action(5)
        assert str(state) == "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N"
        assert state.observation_string(0) == str(state)
        assert state.information_state_string(1) == "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S F"
        assert state.game().rules == rules
    # Importing again registers nothing twice.
    import importlib

    importlib.reload(ows)


def test_abapa_agrees_with_openspiels_oware_on_random_games():
    ours_game, theirs_game = pyspiel.load_game("oware_abapa"), pyspiel.load_game("oware")
    rng = random.Random(20261127)
    finished, plies = 0, 0
    for index in range(GAMES):
        ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
        while not theirs.is_terminal() and ours.move_number() < theirs_game.max_game_length():
            where = f"game {index} after {ours.history()}"
            assert ours.current_player() == theirs.current_player(), where
            assert ours.legal_actions() == theirs.legal_actions(), where
            assert ours.observation_tensor(0) == theirs.observation_tensor(0), where
            action = rng.choice(theirs.legal_actions())
            ours.apply_action(action)
            theirs.apply_action(action)
            assert ours.is_terminal() == theirs.is_terminal(), where
            plies += 1
        if theirs.is_terminal():  # else OpenSpiel's 1000-ply cap (not a rule): compared this far
            finished += 1
            assert ours.returns() == theirs.returns(), f"game {index}: returns"
            assert ours.current_player() == pyspiel.PlayerId.TERMINAL
    assert finished > GAMES * 0.9 and plies > 5_000


def test_start_parameter_and_the_rules_differences():
    # North's row is empty: a move must reach it; F does, D does not.
    feeding = "0-0-0-2-0-1-0-0-0-0-0-0-22-23-S"
    awari = pyspiel.load_game("oware_awari", {"start": feeding}).new_initial_state()
    assert awari.legal_actions() == [5]
    assert pyspiel.load_game("oware_abapa").new_initial_state(feeding).legal_actions() == [5]
    # No move reaches it: awari plays on (any move), abapa ends the game, 25-23 to South.
    starving = "0-0-2-0-0-0-0-0-0-0-0-0-23-23-S"
    assert pyspiel.load_game("oware_awari").new_initial_state(starving).legal_actions() == [2]
    abapa = pyspiel.load_game("oware_abapa").new_initial_state(starving)
    assert abapa.is_terminal() and abapa.returns() == [1.0, -1.0]
    with pytest.raises(ValueError):
        pyspiel.load_game("oware_awari", {"start": "not a position"})


def test_returns_at_the_end_of_a_game():
    # South captures 2 with F: 26-22, a win (abapa scores the stores).
    state = pyspiel.load_game("oware_abapa").new_initial_state("0-0-0-0-0-1-1-1-0-0-0-0-24-21-S")
    state.apply_action(5)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def endgame_positions(rules, seeds, count, seed):
    """Random non-final positions with `seeds` seeds on the board and the stores close."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        houses = np.bincount(rng.integers(0, 12, seeds), minlength=12)
        south = int(rng.integers(20, 25)) if seeds <= 8 else (48 - seeds) // 2
        south = min(south, 48 - seeds - 1)
        north = 48 - seeds - south
        if north > 24 or south > 24:
            continue
        side = "S" if rng.integers(2) == 0 else "N"
        text = "-".join(map(str, [*houses, south, north])) + f"-{side}"
        position = oware.Position(text, rules)
        if not position.is_terminal():
            out.append(position)
    return out


@pytest.fixture(scope="module")
def awari_databases(tmp_path_factory):
    directory = tmp_path_factory.mktemp("egtb")
    oware.build_tablebase(str(directory), "awari", 8)
    return oware.Tablebase(str(directory), "awari")


def test_database_outcome_of_bounds():
    position = oware.Position("0-0-0-0-0-1-1-1-0-0-0-0-20-25-N")  # North: 25 in store
    exact = SimpleNamespace(lower=2, upper=2)
    assert ows.database_outcome(position, exact) == 1  # 27
    south = oware.Position("0-0-0-0-0-1-1-1-0-0-0-0-21-24-S")
    assert ows.database_outcome(south, SimpleNamespace(lower=3, upper=3)) == 0  # 24-24
    assert ows.database_outcome(south, SimpleNamespace(lower=0, upper=2)) == -1
    assert ows.database_outcome(south, SimpleNamespace(lower=2, upper=3)) is None
    assert ows.database_outcome(south, SimpleNamespace(lower=3, upper=4)) is None


def test_database_evaluator_agrees_with_one_move_of_the_rules(awari_databases):
    """The result the evaluator reads from the databases (stores and board value together, for
    the player to move) is the best, over the legal moves, of the result after each move: the
    game's end where the move ends it, else the opponent's result negated. A wrong sign, side
    or store would break it at the captures and the ends."""
    evaluator = ows.DatabaseEvaluator(awari_databases)
    game = pyspiel.load_game("oware_awari")
    for position in endgame_positions("awari", 8, 150, seed=3):
        state = game.new_initial_state(position)
        mover = state.current_player()
        values = evaluator.evaluate(state)
        assert values[0] == -values[1] and values[mover] in (-1, 0, 1)
        best = -1
        for action in state.legal_actions():
            child = state.child(action)
            after = child.returns()[mover] if child.is_terminal() else -evaluator.outcome(child)
            best = max(best, after)
        assert best == values[mover], str(position)
    assert evaluator.misses == 0


def test_database_evaluator_falls_back_beyond_the_databases(awari_databases):
    evaluator = ows.DatabaseEvaluator(awari_databases, seed=1)
    state = pyspiel.load_game("oware_awari").new_initial_state()
    values = evaluator.evaluate(state)
    assert evaluator.misses == 1 and values[0] == -values[1]


def mcts_bot(game, evaluator, simulations=100, seed=1):
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator,
                        random_state=np.random.RandomState(seed), solve=False)


def winning_actions(state, evaluator):
    """The actions after which the mover has won, or the databases prove the opponent lost."""
    mover, out = state.current_player(), set()
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal() and child.returns()[mover] == 1:
            out.add(action)
        elif not child.is_terminal() and evaluator.outcome(child) == -1:
            out.add(action)
    return out


def test_mcts_with_the_database_evaluator_plays_winning_moves(awari_databases):
    game = pyspiel.load_game("oware_awari")
    evaluator = ows.DatabaseEvaluator(awari_databases)
    bot = mcts_bot(game, evaluator)
    checked = 0
    for position in endgame_positions("awari", 8, 300, seed=5):
        state = game.new_initial_state(position)
        winning = winning_actions(state, evaluator)
        if not winning or len(winning) == len(state.legal_actions()):
            continue  # lost or drawn, or every move wins: nothing to choose
        assert bot.step(state) in winning, str(position)
        checked += 1
        if checked == 8:
            break
    assert checked == 8


@pytest.mark.parametrize("rules", ["abapa", "awari"])
def test_mcts_plays_whole_games(rules):
    """OpenSpiel's MCTSBot with its own random rollouts plays both sides of an endgame to the
    end through pyspiel's game loop."""
    game = pyspiel.load_game(f"oware_{rules}", {"start": "1-0-2-0-1-0-0-3-0-1-1-0-19-20-S"})
    bots = [mcts_bot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(s)), 40, s)
            for s in (1, 2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_engine_evaluator_and_mcts():
    game = pyspiel.load_game("oware_abapa")
    evaluator = ows.EngineEvaluator(depth=3)
    # South to move captures 2 with F and wins at once: a proven win.
    state = game.new_initial_state("0-0-0-0-0-1-1-1-0-0-0-0-24-21-S")
    assert evaluator.evaluate(state).tolist() == [1.0, -1.0]
    start = game.new_initial_state()
    values = evaluator.evaluate(start)
    assert abs(values[0]) < 0.5 and values[0] == -values[1]
    bot = mcts_bot(game, evaluator, simulations=12)
    assert bot.step(state) == 5
    assert bot.step(start) in start.legal_actions()
    with pytest.raises(ValueError):
        ows.EngineEvaluator(depth=0)
