#!/usr/bin/env bash
# Strength evidence for issue 3 ("the top level never loses a game to a one-ply greedy player or to
# OpenSpiel's MCTS bot in 100 games"): builds the release `oware`, installs OpenSpiel (and numpy and
# absl-py, which its Python MCTS needs) into openspiel-venv in cargo's target directory (target/, or
# CARGO_TARGET_DIR), and runs `oware match` between our engine at its top level and each sparring
# partner of tests/oracle/openspiel_engine.py, over the 50 openings of
# tests/oracle/strength_openings.txt, each played twice with sides swapped. Prints W/D/L of our engine
# per opponent and exits 1 if it lost any game. Not part of CI (it takes tens of minutes); results are
# recorded in docs/strength.md.
#
# Usage: scripts/strength.sh [greedy|mcts|all]   (default all; the two can run in two shells at once)
# Environment (defaults in brackets):
#   STRENGTH_GAMES [100]        games per opponent
#   STRENGTH_MOVETIME [100]     our engine's time per move, ms (the referee's `--movetime`)
#   STRENGTH_THREADS [1]        our engine's Threads option
#   STRENGTH_SEED [20261122]    the sparring partners' random seed
#   MCTS_SIMULATIONS [1000]     MCTS simulations per move (OpenSpiel's mcts example defaults:
#   MCTS_UCT_C [2]              1000 simulations, uct_c 2, one random rollout per leaf, solver on)
#   MCTS_ROLLOUTS [1]
#   PYTHON [python3]            the Python that makes the venv (OpenSpiel 2.0.2: CPython 3.11-3.14)
#   STRENGTH_OUT [target/strength]  where the games and logs go (the target directory: target/ or
#                               CARGO_TARGET_DIR)
# Output: $STRENGTH_OUT/<opponent>.ogn (all games), <opponent>.log (the referee's progress),
#   <opponent>-losses.ogn (the games our engine lost, if any).
set -euo pipefail
cd "$(dirname "$0")/.."

WHICH="${1:-all}"
GAMES="${STRENGTH_GAMES:-100}"
MOVETIME="${STRENGTH_MOVETIME:-100}"
THREADS="${STRENGTH_THREADS:-1}"
SEED="${STRENGTH_SEED:-20261122}"
SIMS="${MCTS_SIMULATIONS:-1000}"
UCT_C="${MCTS_UCT_C:-2}"
ROLLOUTS="${MCTS_ROLLOUTS:-1}"
NUMPY_VERSION=2.4.6
ABSL_VERSION=2.5.1

case "$WHICH" in
  greedy | mcts) OPPONENTS=("$WHICH") ;;
  all) OPPONENTS=(greedy mcts) ;;
  *) echo "usage: $0 [greedy|mcts|all]" >&2; exit 2 ;;
esac

cargo build --release --locked -p oware-cli
. scripts/lib/target-dir.sh
OWARE=$(oware_binary)
OUT="${STRENGTH_OUT:-$TARGET/strength}"

# The same venv as scripts/test.d/openspiel.sh, plus what OpenSpiel's Python MCTS imports when the
# MCTS bot plays.
. scripts/lib/openspiel-venv.sh
ensure_openspiel_venv
if [ "$WHICH" != greedy ] && ! "$VENV/bin/python" -c "import numpy, absl" 2>/dev/null; then
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: \
    "numpy==$NUMPY_VERSION" "absl-py==$ABSL_VERSION"
fi

mkdir -p "$OUT"
status=0
for opponent in "${OPPONENTS[@]}"; do
  bot="'$VENV/bin/python' tests/oracle/openspiel_engine.py --seed $SEED"
  case "$opponent" in
    greedy) bot="$bot --bot greedy" ;;
    mcts) bot="$bot --bot mcts --simulations $SIMS --uct-c $UCT_C --rollouts $ROLLOUTS" ;;
  esac
  echo "strength.sh: $GAMES games, oware (Level 10, Threads $THREADS, $MOVETIME ms/move) vs $bot"
  start=$(date +%s)
  # The --option lines reach both engines; the sparring partners accept and ignore them.
  # --no-egtb: the search's own strength, with no databases built in the user's data directory.
  "$OWARE" match --engine "'$OWARE' engine --no-egtb" --engine "$bot" --games "$GAMES" \
    --movetime "$MOVETIME" --openings tests/oracle/strength_openings.txt \
    --option Level=10 --option Threads="$THREADS" \
    --out "$OUT/$opponent.ogn" 2>"$OUT/$opponent.log" | tee "$OUT/$opponent.result"
  echo "strength.sh: $opponent: $(( $(date +%s) - start )) s"
  "$VENV/bin/python" tests/oracle/ogn_summary.py "$OUT/$opponent.ogn" "oware "
  # Forfeits would flatter us (a slow or broken opponent loses on the referee's clock): show them.
  if grep -q forfeits "$OUT/$opponent.ogn"; then
    echo "strength.sh: $opponent: FORFEITS in $OUT/$opponent.ogn:"
    grep forfeits "$OUT/$opponent.ogn"
    status=1
  fi
  "$VENV/bin/python" tests/oracle/ogn_losses.py "$OUT/$opponent.ogn" "oware " \
    >"$OUT/$opponent-losses.ogn"
  if [ -s "$OUT/$opponent-losses.ogn" ]; then
    echo "strength.sh: $opponent: our engine LOST games, kept in $OUT/$opponent-losses.ogn"
    status=1
  else
    rm -f "$OUT/$opponent-losses.ogn"
  fi
done
exit "$status"
