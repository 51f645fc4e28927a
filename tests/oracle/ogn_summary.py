#!/usr/bin/env python3
"""Summarises an `oware match` OGN file from the side of the engine whose South/North tag starts with
PREFIX: games, how they ended (Termination without the score), its average and lowest final score,
the opponent's average and highest, and the game length in plies (opening included).

Usage: ogn_summary.py FILE PREFIX
"""

import collections
import re
import sys

from ogn_losses import TAG, records


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, prefix = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    ours, theirs, plies, endings = [], [], [], collections.Counter()
    for record in records(text):
        lines = record.splitlines()
        tags = dict(m.groups() for m in map(TAG.match, lines) if m)
        termination = tags.get("Termination", "")
        score = re.match(r"(\d+)-(\d+) (.*)", termination)
        if score:
            south, north = int(score.group(1)), int(score.group(2))
            us_south = tags.get("South", "").startswith(prefix)
            ours.append(south if us_south else north)
            theirs.append(north if us_south else south)
            endings[score.group(3)] += 1
        else:
            endings[termination] += 1
        movetext = " ".join(line for line in lines if line and not line.startswith("["))
        plies.append(len([w for w in movetext.split()[:-1] if not w.endswith(".")]))
    n = len(plies)
    print(f"{path}: {n} games; endings: {dict(endings)}")
    if ours:
        print(f"  final score ({prefix.strip()}): average {sum(ours) / len(ours):.1f}, lowest "
              f"{min(ours)}; opponent: average {sum(theirs) / len(theirs):.1f}, highest {max(theirs)}")
    if n:
        print(f"  plies per game: average {sum(plies) / n:.1f}, longest {max(plies)}")


if __name__ == "__main__":
    main()
