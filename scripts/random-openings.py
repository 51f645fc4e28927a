#!/usr/bin/env python3
"""Prints random openings for `oware match --openings`: COUNT distinct move lists of PLIES plies from
the start, each ply a uniform choice among the mover's non-empty houses, none with a capture (so
that no opening gives either side a head start in seeds). Deterministic for a given SEED.

    scripts/random-openings.py PLIES COUNT SEED > openings.txt

Only the first plies of a game are drawn, where no row can be empty, so every non-empty house is a
legal move; `oware match` checks every opening with the rules crate anyway.
"""
import random
import sys


def sow(board, house, south_to_move):
    """The board after sowing `house`, and whether the move captures."""
    board = board[:]
    seeds, board[house], at = board[house], 0, house
    while seeds:
        at = (at + 1) % 12
        if at != house:  # a lap skips the origin
            board[at] += 1
            seeds -= 1
    opponent = range(6, 12) if south_to_move else range(0, 6)
    return board, at in opponent and board[at] in (2, 3)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    plies, count, seed = map(int, sys.argv[1:])
    rng = random.Random(seed)
    seen = []
    for _ in range(1000 * count):
        if len(seen) == count:
            break
        board, south, letters = [4] * 12, True, ""
        for _ in range(plies):
            houses = range(0, 6) if south else range(6, 12)
            house = rng.choice([h for h in houses if board[h] > 0])
            board, captured = sow(board, house, south)
            if captured:
                break
            letters += "ABCDEF"[house] if south else "abcdef"[house - 6]
            south = not south
        else:
            if letters not in seen:
                seen.append(letters)
    print("\n".join(seen))


if __name__ == "__main__":
    main()
