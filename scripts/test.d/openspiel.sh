#!/usr/bin/env bash
# Differential test of oware-rules against OpenSpiel's oware (an independent C++ implementation of
# abapa): installs a pinned OpenSpiel into a venv in cargo's target directory (target/, or
# CARGO_TARGET_DIR), plays thousands of seeded random games there, and replays every one with our
# rules, ply by ply (crates/oware-oracle).
#
# Environment: OPENSPIEL_GAMES (default 10000), OPENSPIEL_SEED (default 20261122), PYTHON (default
# python3; OpenSpiel 2.0.2 ships wheels for CPython 3.11 to 3.14 on x86_64 Linux, glibc >= 2.28).
set -euo pipefail
cd "$(dirname "$0")/../.."

GAMES="${OPENSPIEL_GAMES:-10000}"
SEED="${OPENSPIEL_SEED:-20261122}"

. scripts/lib/openspiel-venv.sh
ensure_openspiel_venv
TRACES=$TARGET/openspiel-traces.jsonl

start=$(date +%s)
"$VENV/bin/python" tests/oracle/openspiel_traces.py --games "$GAMES" --seed "$SEED" --out "$TRACES"
OWARE_OPENSPIEL_TRACES="$TRACES" cargo test --release --locked -p oware-oracle --test openspiel \
  -- --nocapture
echo "openspiel.sh: $GAMES games generated and compared in $(( $(date +%s) - start )) s"
