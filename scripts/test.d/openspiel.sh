#!/usr/bin/env bash
# Differential test of oware-rules against OpenSpiel's oware (an independent C++ implementation of
# abapa): installs a pinned OpenSpiel into a venv under target/, plays thousands of seeded random
# games there, and replays every one with our rules, ply by ply (crates/oware-oracle).
#
# Environment: OPENSPIEL_GAMES (default 10000), OPENSPIEL_SEED (default 20261122), PYTHON (default
# python3; OpenSpiel 2.0.2 ships wheels for CPython 3.11 to 3.14 on x86_64 Linux, glibc >= 2.28).
set -euo pipefail
cd "$(dirname "$0")/../.."

OPENSPIEL_VERSION=2.0.2
GAMES="${OPENSPIEL_GAMES:-10000}"
SEED="${OPENSPIEL_SEED:-20261122}"
PYTHON="${PYTHON:-python3}"
VENV=target/openspiel-venv
TRACES=target/openspiel-traces.jsonl

install_python_with_apt() {
  echo "openspiel.sh: installing python3 and python3-venv with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >/dev/null
  PYTHON=python3
}

# A bare Debian machine may lack Python, or have it without the venv module (python3-venv).
command -v "$PYTHON" >/dev/null || install_python_with_apt
if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "openspiel.sh: $("$PYTHON" --version 2>&1) is too old: OpenSpiel $OPENSPIEL_VERSION has" \
    "wheels for CPython 3.11 to 3.14 only" >&2
  exit 1
fi

if ! "$VENV/bin/python" -c "import pyspiel; assert pyspiel.__version__ == '$OPENSPIEL_VERSION'" \
  2>/dev/null; then
  echo "openspiel.sh: installing open_spiel==$OPENSPIEL_VERSION into $VENV"
  rm -rf "$VENV"
  if ! "$PYTHON" -m venv "$VENV"; then
    rm -rf "$VENV"
    install_python_with_apt
    "$PYTHON" -m venv "$VENV"
  fi
  # --only-binary: never fall back to building OpenSpiel from source (cmake, clang, half an hour).
  # --no-deps: pyspiel itself is one compiled module that imports nothing; the declared dependencies
  # (numpy, scipy, absl, ml-collections: ~300 MB) serve OpenSpiel's Python algorithms, not the games.
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
    --only-binary=:all: "open_spiel==$OPENSPIEL_VERSION"
fi

start=$(date +%s)
"$VENV/bin/python" tests/oracle/openspiel_traces.py --games "$GAMES" --seed "$SEED" --out "$TRACES"
OWARE_OPENSPIEL_TRACES="$PWD/$TRACES" cargo test --release --locked -p oware-oracle --test openspiel \
  -- --nocapture
echo "openspiel.sh: $GAMES games generated and compared in $(( $(date +%s) - start )) s"
