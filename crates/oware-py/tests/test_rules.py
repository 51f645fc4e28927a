"""Positions, games, records and perft: the rules as Python sees them."""

import pytest

import oware

START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"


def test_start_position_and_its_moves():
    p = oware.Position.initial()
    assert str(p) == START
    assert p.legal_moves() == ["A", "B", "C", "D", "E", "F"]
    assert p.houses == [4] * 12
    assert p.stores == (0, 0)
    assert p.to_move == "south"
    assert p.rules == "abapa"
    assert not p.is_terminal()
    assert p == oware.Position(START)
    assert hash(p) == hash(oware.Position(START))
    assert repr(p) == f"Position('{START}', rules='abapa')"


def test_perft_of_the_issue():
    assert oware.perft(oware.Position("4-4-4-4-0-5-5-5-5-4-4-4-0-0-N"), 9) == 2_723_937


def test_play_returns_a_new_position_by_letter_or_column():
    p = oware.Position.initial()
    after = p.play("F")
    assert str(after) == "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N"
    assert p.play(5) == after
    assert str(p) == START
    assert after.legal_moves() == ["a", "b", "c", "d", "e", "f"]


@pytest.mark.parametrize(
    "move, reason",
    [
        ("a", "that house belongs to the other player"),
        ("Z", "Z"),
        (6, "column is 0 to 5"),
        (-1, "column is 0 to 5"),
        (1.5, "a move is a letter"),
    ],
)
def test_illegal_or_malformed_moves_raise_value_error(move, reason):
    with pytest.raises(ValueError, match=reason):
        oware.Position.initial().play(move)


def test_empty_house_and_feeding_rules_give_their_reasons():
    p = oware.Position("0-4-4-4-4-4-4-4-4-4-4-4-0-4-S")
    with pytest.raises(ValueError, match="that house is empty"):
        p.play("A")
    # North has no seeds: South must feed them (abapa).
    feed = oware.Position("1-0-0-0-0-1-0-0-0-0-0-0-23-23-S")
    assert feed.legal_moves() == ["F"]
    with pytest.raises(ValueError, match="does not give them any"):
        feed.play("A")


def test_awari_refuses_moves_that_starve_when_another_feeds():
    p = oware.Position("0-0-0-0-1-1-0-0-0-0-2-0-22-22-S", rules="awari")
    assert p.rules == "awari"
    moves = p.legal_moves()
    for m in moves:
        assert sum(p.play(m).houses[6:]) > 0


@pytest.mark.parametrize(
    "text, reason",
    [
        ("4-4-4", "15 fields"),
        ("4-4-4-4-4-4-4-4-4-4-4-4-0-1-S", "48 seeds"),
        ("4-4-4-4-4-4-4-4-4-4-4-x-0-0-S", "house 11"),
        ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-W", "S \\(South\\) or N"),
    ],
)
def test_malformed_position_strings_raise_value_error(text, reason):
    with pytest.raises(ValueError, match=reason):
        oware.Position(text)


def test_unknown_rule_set_raises_value_error():
    with pytest.raises(ValueError, match="chess"):
        oware.Position.initial("chess")


def test_terminal_positions_and_their_scores():
    won = oware.Position("0-0-0-0-0-1-1-1-0-0-0-0-25-20-N")
    assert won.is_terminal()
    assert won.legal_moves() == []
    assert won.final_score() == (25.0, 20.0)
    stuck = oware.Position("0-0-0-0-0-0-0-0-0-0-1-0-23-24-S")
    assert stuck.is_terminal()
    assert stuck.final_score() == (23.0, 25.0)
    assert oware.Position.initial().final_score() is None


def test_array_round_trip():
    p = oware.Position("0-0-0-0-0-1-1-1-0-0-0-0-25-20-N")
    values = p.to_array()
    assert values.tolist() == [0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 25, 20, 1]
    assert oware.Position.from_array(values) == p
    with pytest.raises(ValueError, match="48 seeds"):
        oware.Position.from_array([0] * 15)
    with pytest.raises(ValueError, match="side to move"):
        oware.Position.from_array([4] * 12 + [0, 0, 2])


def test_a_game_ends_on_repetition_with_its_history():
    game = oware.Game(start="0-0-0-0-0-1-0-0-0-0-0-1-23-23-S")
    while not game.is_over():
        game.play(game.legal_moves()[0])
    assert game.end.reason == "repetition"
    assert len(game) == 12
    # The same position alone knows nothing of the repetition.
    assert not game.position.is_terminal()
    with pytest.raises(ValueError, match="the game is over"):
        game.play("A")


def test_awari_repetition_splits_the_seeds():
    game = oware.Game("awari", "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S")
    while not game.is_over():
        game.play(game.legal_moves()[0])
    assert game.end.reason == "repetition"
    assert game.end.score == (24.0, 24.0)
    assert game.end.winner is None


def test_game_takes_its_rules_from_a_start_position():
    game = oware.Game(start=oware.Position.initial("awari"))
    assert game.rules == "awari"


def test_game_records_round_trip_as_ogn():
    record = """[Variant "abapa"]
[Event "?"]
[Site "?"]
[Date "2026.11.22"]
[Round "?"]
[South "Ama"]
[North "Kofi"]
[Result "*"]

1. F f 2. E a {a quiet start} 3. D b *
"""
    game = oware.Game.from_record(record)
    assert game.moves == ["F", "f", "E", "a", "D", "b"]
    assert str(game) == record
    assert str(oware.Game.from_record(str(game))) == record


def test_records_in_every_form_the_command_reads():
    assert oware.Game.from_record("FfEa").moves == ["F", "f", "E", "a"]
    from_position = oware.Game.from_record("4-4-4-4-4-0-5-5-5-5-4-4-0-0-N fE")
    assert str(from_position.start) == "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N"
    assert from_position.moves == ["f", "E"]
    assert "[FEN" in str(from_position)
    assert oware.Game.from_record('[Variant "awari"]\n\n1. F *').rules == "awari"


def test_a_bad_record_names_the_line_and_ply():
    with pytest.raises(ValueError, match="line 2.*ply 2"):
        oware.Game.from_record('[Variant "abapa"]\n1. F F *')


def test_undo_and_copy():
    game = oware.Game()
    game.play("F")
    copy = game.copy()
    assert game.undo() == "F"
    assert game.undo() is None
    assert len(game) == 0
    assert copy.moves == ["F"]
    assert game.positions[0] == oware.Position.initial()


def test_captures_are_counted():
    game = oware.Game(start="4-4-4-4-4-3-4-1-2-4-4-4-3-3-S")
    assert game.play("F") == 5
    assert game.captures == [5]
    assert game.position.stores == (8, 3)
