#!/usr/bin/env bash
# A CI-sized slice of scripts/strength.sh: our engine at its top level (20 ms per move) against the
# one-ply greedy player of tests/oracle/openspiel_engine.py, 10 games over the first 5 openings of
# tests/oracle/strength_openings.txt, sides swapped. Fails if our engine loses a game (or if the
# greedy player forfeits one, which would mean the harness is broken). Installs the release `oware`
# and pyspiel in target/openspiel-venv itself, like scripts/test.d/openspiel.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
STRENGTH_GAMES=10 STRENGTH_MOVETIME=20 STRENGTH_OUT=target/strength-smoke scripts/strength.sh greedy
echo "strength-smoke.sh: done in $(( $(date +%s) - start )) s"
