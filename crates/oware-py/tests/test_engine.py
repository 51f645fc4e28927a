"""The engine, the databases and the coach from Python."""

import threading

import pytest

import oware

# A database position of the README: awari, South to move, F wins at once.
AWARI_END = "0-0-0-1-0-2-0-2-0-0-0-0-22-21-S"


def test_search_finds_a_legal_move_with_its_line():
    engine = oware.Engine(threads=1, hash_mb=16)
    result = engine.search(oware.Position.initial(), depth=6)
    assert result.best_move in oware.Position.initial().legal_moves()
    assert result.depth == 6
    assert result.pv[0] == result.best_move
    assert result.nodes > 0
    assert result.source == "search"
    assert isinstance(result.score, int)


def test_search_takes_the_capture():
    engine = oware.Engine()
    result = engine.search(oware.Position("4-4-4-4-4-3-4-1-2-4-4-4-3-3-S"), depth=4)
    assert result.best_move == "F"


def test_search_accepts_games_and_position_strings():
    engine = oware.Engine()
    game = oware.Game.from_record("FfEa")
    assert engine.search(game, depth=3).best_move in game.legal_moves()
    assert engine.search(str(game.position), depth=3).best_move in game.legal_moves()


def test_search_of_a_finished_game_raises_value_error():
    with pytest.raises(ValueError, match="the game is over"):
        oware.Engine().search(oware.Position("0-0-0-0-0-1-1-1-0-0-0-0-25-20-N"), depth=3)


def test_bad_engine_settings_raise_value_error():
    with pytest.raises(ValueError, match="threads"):
        oware.Engine(threads=0)
    with pytest.raises(ValueError, match="egtb"):
        oware.Engine(egtb=3)
    with pytest.raises(ValueError, match="depth"):
        oware.Engine().search(oware.Position.initial(), depth=0)
    with pytest.raises(ValueError, match="level"):
        oware.Engine().choose_move(oware.Position.initial(), level=11)


def test_levels_choose_legal_moves_repeatably():
    engine = oware.Engine()
    p = oware.Position.initial()
    first = engine.choose_move(p, level=3, movetime_ms=1000, seed=7)
    assert first in p.legal_moves()
    assert engine.choose_move(p, level=3, movetime_ms=1000, seed=7) == first


def test_search_lets_other_threads_run():
    """While the engine searches in one thread, the main thread keeps running Python code: it
    could not if the search held the GIL (it would get its turn only after the search)."""
    engine = oware.Engine()
    done = threading.Event()
    results = []

    def search():
        results.append(engine.search(oware.Position.initial(), movetime_ms=1500))
        done.set()

    thread = threading.Thread(target=search)
    thread.start()
    rounds_during_search = 0
    while not done.is_set():
        rounds_during_search += 1
        done.wait(0.001)
    thread.join()
    assert results[0].best_move is not None
    assert rounds_during_search > 10


def test_stop_ends_a_long_search():
    engine = oware.Engine()
    results = []
    thread = threading.Thread(
        target=lambda: results.append(engine.search(oware.Position.initial(), movetime_ms=600_000)))
    thread.start()
    # Wait until the search runs (it has taken the engine), then stop it.
    while not results and thread.is_alive():
        engine.stop()
        thread.join(0.05)
    # Generous: a stopped search returns within milliseconds; ten minutes are asked for.
    thread.join(120)
    assert not thread.is_alive()
    assert results[0].best_move is not None


@pytest.fixture(scope="module")
def awari_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("egtb")
    oware.build_tablebase(str(directory), "awari", 6)
    return directory


def test_tablebase_probe_gives_value_and_best_moves(awari_dir):
    tb = oware.Tablebase(awari_dir, "awari")
    assert tb.rules == "awari"
    assert tb.max_seeds == 6
    value = tb.probe(oware.Position(AWARI_END, "awari"))
    assert value.exact
    assert value.value == 1
    assert (value.lower, value.upper) == (1, 1)
    assert value.best_moves == ["F"]
    assert value.moves["F"] == (1, 1)
    assert value.moves["D"] == (-5, -5)
    assert value.seeds == 5
    # More seeds on the board than the databases hold.
    assert tb.probe(oware.Position.initial("awari")) is None


def test_tablebase_errors(awari_dir, tmp_path):
    tb = oware.Tablebase(awari_dir, "awari")
    with pytest.raises(ValueError, match="awari databases"):
        tb.probe(oware.Position.initial())
    with pytest.raises(ValueError, match="no abapa database"):
        oware.Tablebase(awari_dir, "abapa")
    with pytest.raises(ValueError, match="no endgame database"):
        oware.Engine(egtb=str(tmp_path))
    with pytest.raises(ValueError, match="up to"):
        oware.build_tablebase(str(tmp_path), "awari", 99)


def test_engine_plays_the_database_move(awari_dir):
    for egtb in (oware.Tablebase(awari_dir, "awari"), str(awari_dir)):
        engine = oware.Engine(egtb=egtb)
        result = engine.search(oware.Position(AWARI_END, "awari"), movetime_ms=100)
        assert result.source == "database"
        assert result.best_move == "F"


def test_a_win_the_databases_prove_has_no_false_distance(awari_dir):
    # 8 seeds: beyond the databases at the root; after F they value the game won by 4 seeds.
    # Where some lines end in evaluations, a database value counts as seeds (and one seed more
    # for the proof), never as a win at the distance of the ply the search probed at.
    position = oware.Position("0-1-0-1-1-1-1-0-0-1-0-2-20-20-S", "awari")
    result = oware.Engine(egtb=str(awari_dir)).search(position, depth=8)
    assert result.source == "search"
    assert result.best_move == "F"
    assert result.score == 4 * 100 + 100
    assert result.score_text == "+5.00"
    without = oware.Engine().search(position, depth=8)
    assert "endgame database" not in without.score_text


def test_coach_explains_a_capture():
    p = oware.Position("4-4-4-4-4-3-4-1-2-4-4-4-3-3-S")
    [why] = oware.coach.explain(p, move="F", depth=4)
    assert why.move == "F"
    assert why.facts == "F sows 3 seeds and takes b and c: 5 seeds."
    assert why.text.startswith(why.facts)
    assert why.best_move == "F" and why.loss == 0
    assert str(why) == why.text


def test_coach_explains_every_move_best_first_in_other_languages():
    p = oware.Position("4-4-4-4-4-3-4-1-2-4-4-4-3-3-S")
    all_moves = oware.coach.explain(p, lang="fr", depth=4)
    assert sorted(e.move for e in all_moves) == p.legal_moves()
    assert all_moves[0].loss == 0
    assert [e.score for e in all_moves] == sorted((e.score for e in all_moves), reverse=True)
    assert "graines" in all_moves[0].text


def test_coach_errors():
    with pytest.raises(ValueError, match="unknown language"):
        oware.coach.explain(oware.Position.initial(), lang="de", depth=2)
    with pytest.raises(ValueError, match="belongs to the other player"):
        oware.coach.explain(oware.Position.initial(), move="a", depth=2)
