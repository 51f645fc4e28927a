#!/usr/bin/env python3
"""Prints the games of an `oware match` OGN file that the engine whose South/North tag starts with
PREFIX lost (used by scripts/strength.sh to keep our engine's losses).

Usage: ogn_losses.py FILE PREFIX
"""

import re
import sys

TAG = re.compile(r'^\[(\w+) "(.*)"\]$')


def records(text):
    """Each record's text: records start at their first tag line after move text (or the start)."""
    current, in_moves = [], False
    for line in text.splitlines():
        if line.startswith("[") and in_moves:
            yield "\n".join(current).strip() + "\n"
            current, in_moves = [], False
        if line.strip() and not line.startswith("["):
            in_moves = True
        current.append(line)
    if any(line.strip() for line in current):
        yield "\n".join(current).strip() + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, prefix = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for record in records(text):
        tags = dict(m.groups() for m in map(TAG.match, record.splitlines()) if m)
        lost = {"1-0": "North", "0-1": "South"}.get(tags.get("Result", ""))
        if lost and tags.get(lost, "").startswith(prefix):
            print(record)


if __name__ == "__main__":
    main()
