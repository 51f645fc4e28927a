#!/usr/bin/env bash
# Compares two builds of the engine on `oware bench`, in pairs: the two run in turn, N times, and
# the figure is the geometric mean (and range) of the ratios B/A within each pair. On a machine
# shared with other work the load changes by the minute; the ratio within a pair is what holds.
#
#   scripts/bench-pair.sh N "BENCH ARGS" OLD_BINARY NEW_BINARY
#   scripts/bench-pair.sh 8 "--movetime 200" /tmp/oware-old target/release/oware   # nps ratio
#   scripts/bench-pair.sh 10 "-d 22" /tmp/oware-old target/release/oware            # time ratio
#
# With a fixed depth (no --movetime) it compares processor time (lower is better); with
# --movetime, nodes per processor second and average depth (higher is better).
set -euo pipefail
if [ $# -ne 4 ]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
n=$1 args=$2 a=$3 b=$4
case " $args " in
    # "nps per cpu second N" or "cpu time N ms": the line and the column of the figure.
    *" --movetime "*) field='^nps per cpu second'; column=5; what='nps per processor second' ;;
    *) field='^cpu time'; column=3; what='processor time (ms)' ;;
esac
figure() { awk -v f="$field" -v c="$column" '$0 ~ f { print $c }'; }
depth() { awk '/^average depth [0-9]/ { print $3 }'; }
for _ in $(seq "$n"); do
    # shellcheck disable=SC2086  # the bench arguments are split on purpose
    out_a=$("$a" bench $args)
    # shellcheck disable=SC2086
    out_b=$("$b" bench $args)
    echo "$(figure <<<"$out_a") $(figure <<<"$out_b") $(depth <<<"$out_a") $(depth <<<"$out_b")"
done | awk -v what="$what" '
    { r = $2 / $1; s += log(r); if (NR == 1 || r < lo) lo = r; if (NR == 1 || r > hi) hi = r
      fa += $1; fb += $2; da += $3; db += $4 }
    END { printf "%s, B/A: geometric mean %.3f, range %.3f..%.3f (%d pairs)\n", what, exp(s / NR), lo, hi, NR
          printf "means: A %.0f, B %.0f; average depth A %.2f, B %.2f\n", fa / NR, fb / NR, da / NR, db / NR }'
