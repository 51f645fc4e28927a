"""The batched API against the one-position API it must agree with."""

import numpy as np
import pytest

import oware


def random_positions(rules, count, seed):
    """Positions met in random games (and whether each ends a game), by the Position API."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        p = oware.Position.initial(rules)
        # A Position has no history: a random game may cycle for ever, so each is cut at 400.
        for _ in range(400):
            if p.is_terminal():
                break
            out.append(p)
            moves = p.legal_moves()
            p = p.play(moves[rng.integers(len(moves))])
    return out[:count]


@pytest.mark.parametrize("rules", ["abapa", "awari"])
def test_step_agrees_with_position_play(rules):
    positions = random_positions(rules, 3000, seed=1)
    rng = np.random.default_rng(2)
    arrays = np.stack([p.to_array() for p in positions])
    masks = oware.batch.legal_mask(arrays, rules)
    moves = oware.batch.random_moves(masks, rng)
    after, rewards, dones, next_masks = oware.batch.step(arrays, moves, rules)
    for i, p in enumerate(positions):
        legal = p.legal_moves()
        assert [m.upper() for m in legal] == ["ABCDEF"[c] for c in range(6) if masks[i, c]]
        expected = p.play(int(moves[i]))
        assert oware.Position.from_array(after[i], rules) == expected
        assert dones[i] == expected.is_terminal()
        if dones[i]:
            south, north = expected.final_score()
            mine, theirs = (south, north) if p.to_move == "south" else (north, south)
            assert rewards[i] == mine - theirs
            assert not next_masks[i].any()
        else:
            assert rewards[i] == 0
            assert [m.upper() for m in expected.legal_moves()] == [
                "ABCDEF"[c] for c in range(6) if next_masks[i, c]]


def test_autoreset_restarts_finished_games():
    # F captures 2: 26 seeds, and abapa scores the stores alone (b's seed stays on the board).
    ending = oware.Position("0-0-0-0-0-1-1-1-0-0-0-0-24-21-S")
    arrays = np.stack([ending.to_array(), oware.Position.initial().to_array()])
    after, rewards, dones, masks = oware.batch.step(arrays, [5, 0], autoreset=True)
    assert dones.tolist() == [True, False]
    assert rewards[0] == 26 - 21
    assert after[0].tolist() == oware.Position.initial().to_array().tolist()
    assert masks[0].all()


def test_initial_positions():
    start = oware.batch.initial(3)
    assert start.dtype == np.int8 and start.shape == (3, 15)
    assert (start == oware.Position.initial().to_array()).all()
    assert oware.batch.legal_mask(start).all()


@pytest.mark.parametrize(
    "row, move, message",
    [
        ([4] * 12 + [0, 0, 0], 6, "column 0 to 5"),
        ([4] * 12 + [0, 0, 0], -1, "column 0 to 5"),
        ([4] * 12 + [0, 1, 0], 0, "48 seeds"),
        ([4] * 12 + [0, 0, 3], 0, "side to move"),
        ([-4] + [4] * 11 + [4, 4, 0], 0, "negative"),
        ([0] + [4] * 11 + [2, 2, 0], 0, "that house is empty"),
    ],
)
def test_bad_rows_and_moves_raise_value_error_naming_the_row(row, move, message):
    good = oware.Position.initial().to_array()
    arrays = np.stack([good, np.array(row, dtype=np.int8)])
    with pytest.raises(ValueError, match=f"row 1.*{message}"):
        oware.batch.step(arrays, [0, move])


def test_shape_errors():
    with pytest.raises(ValueError, match="15 columns"):
        oware.batch.step(np.zeros((2, 14)), [0, 0])
    with pytest.raises(ValueError, match="2 positions but 3 moves"):
        oware.batch.step(oware.batch.initial(2), [0, 0, 0])
    with pytest.raises(ValueError, match="6 columns"):
        oware.batch.random_moves(np.ones((2, 5), dtype=bool))


def test_random_moves_are_legal_uniform_and_repeatable():
    masks = np.array([[True, False, True, False, False, True]] * 30000 + [[False] * 6])
    moves = oware.batch.random_moves(masks, np.random.default_rng(5))
    assert moves[-1] == -1
    counts = np.bincount(moves[:-1], minlength=6)
    assert counts[1] == counts[3] == counts[4] == 0
    assert all(9000 < counts[c] < 11000 for c in (0, 2, 5))
    again = oware.batch.random_moves(masks, np.random.default_rng(5))
    assert (moves == again).all()


@pytest.mark.parametrize("rules", ["abapa", "awari"])
def test_games_agree_with_game_repetitions_included(rules):
    n = 64
    games = oware.batch.Games(n, rules)
    mirrors = [oware.Game(rules) for _ in range(n)]
    rng = np.random.default_rng(3)
    mask = games.legal_mask()
    ended = set()
    for _ in range(400):
        moves = oware.batch.random_moves(mask, rng)
        positions, rewards, dones, mask = games.step(moves)
        for i, game in enumerate(mirrors):
            mover = game.position.to_move
            game.play(int(moves[i]))
            assert dones[i] == game.is_over()
            if game.is_over():
                ended.add(game.end.reason)
                south, north = game.end.score
                assert rewards[i] == (south - north if mover == "south" else north - south)
                mirrors[i] = game = oware.Game(rules)
            assert oware.Position.from_array(positions[i], rules) == game.position
    assert "repetition" in ended or rules == "awari"
    assert len(games) == n and games.rules == rules


def test_games_reset_and_errors():
    games = oware.batch.Games(2)
    games.step(np.array([5, 5]))
    games.reset(np.array([True, False]))
    assert games.game(0).moves == []
    assert games.game(1).moves == ["F"]
    with pytest.raises(ValueError, match="2 games but 1 moves"):
        games.step(np.array([0]))
    games.step(np.array([0, 5]))  # A; f
    with pytest.raises(ValueError, match="game 1.*that house is empty"):
        games.step(np.array([0, 5]))  # a; F, emptied by the first move
    # Nothing was played: game 0 is still where it was.
    assert games.game(0).moves == ["A"]
    with pytest.raises(ValueError, match="2 games, not 3"):
        games.game(2)


@pytest.mark.parametrize("rules", ["abapa", "awari"])
def test_large_batches_split_across_threads_agree_with_small_ones(rules):
    """A batch large enough to be split across threads gives what the same rows give in batches
    of one thread's size, errors included (the lowest row's)."""
    rows = np.stack([p.to_array() for p in random_positions(rules, 5000, seed=7)])
    masks = oware.batch.legal_mask(rows, rules)
    moves = oware.batch.random_moves(masks, np.random.default_rng(8))
    whole = oware.batch.step(rows, moves, rules, autoreset=True)
    for first in range(0, 5000, 1000):
        part = oware.batch.step(rows[first:first + 1000], moves[first:first + 1000], rules, True)
        for got, expected in zip(whole, part):
            assert (got[first:first + 1000] == expected).all()
    bad = moves.copy()
    bad[4000] = 6
    bad[3000] = -1
    with pytest.raises(ValueError, match="row 3000"):
        oware.batch.step(rows, bad, rules)


def test_games_split_across_threads_agree_with_game():
    n = 2100  # split in two
    games = oware.batch.Games(n)
    mirrors = [oware.Game() for _ in range(n)]
    rng = np.random.default_rng(9)
    mask = games.legal_mask()
    for _ in range(40):
        moves = oware.batch.random_moves(mask, rng)
        positions, rewards, dones, mask = games.step(moves)
        for i in range(0, n, 7):
            game = mirrors[i]
            game.play(int(moves[i]))
            assert dones[i] == game.is_over()
            if game.is_over():
                mirrors[i] = game = oware.Game()
            assert oware.Position.from_array(positions[i]) == game.position
            assert mask[i].tolist() == [
                "ABCDEF"[c] in [m.upper() for m in game.legal_moves()] for c in range(6)]
    for i in range(0, n, 7):
        assert games.game(i).moves == mirrors[i].moves
