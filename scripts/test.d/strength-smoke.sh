#!/usr/bin/env bash
# A CI-sized slice of scripts/strength.sh: our engine at its top level (20 ms per move) against the
# one-ply greedy player of tests/oracle/openspiel_engine.py, 40 games over the first 20 openings of
# tests/oracle/strength_openings.txt, sides swapped. Fails if our engine loses a game or if the greedy
# player forfeits one (which would mean the harness is broken, not that we are strong). First checks
# the adapter itself (--self-test: its capture count against OpenSpiel, refused positions).
# strength.sh builds the release `oware` and puts pyspiel in the openspiel-venv of cargo's target
# directory itself, like scripts/test.d/openspiel.sh. About 10 s here once those exist.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib/target-dir.sh
start=$(date +%s)
STRENGTH_GAMES=40 STRENGTH_MOVETIME=20 STRENGTH_OUT="$TARGET/strength-smoke" scripts/strength.sh greedy
"$TARGET/openspiel-venv/bin/python" tests/oracle/openspiel_engine.py --self-test
echo "strength-smoke.sh: done in $(( $(date +%s) - start )) s"
