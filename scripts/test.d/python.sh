#!/usr/bin/env bash
# The Python package (crates/oware-py): formatting and lints of its crate (a workspace of its own,
# outside the main one), then a venv in cargo's target directory (target/, or CARGO_TARGET_DIR)
# with the test dependencies and a pinned OpenSpiel (installed as scripts/test.d/openspiel.sh
# does), the package installed by the README's command, `pip install ./crates/oware-py`
# (a release build by maturin), and its pytest suite, the differential tests against OpenSpiel's
# Python oware and OpenSpiel's MCTS on oware.openspiel's games included.
#
# Environment: PYTHON (default python3; OpenSpiel's wheels need CPython 3.11 to 3.14).
set -euo pipefail
cd "$(dirname "$0")/../.."

. scripts/lib/openspiel-venv.sh
PY_VENV=$TARGET/python-venv
# Pinned, as OpenSpiel is, so that a new release cannot change what the suite tests.
# absl-py: OpenSpiel's MCTS (open_spiel.python.algorithms.mcts), which the tests of oware.openspiel
# run, imports it; OpenSpiel's wheel is installed without its dependencies (below).
TEST_PACKAGES=(numpy==2.4.6 gymnasium==1.4.0 pettingzoo==1.27.0 pytest==9.2.0 absl-py==2.5.1)
MANIFEST=crates/oware-py/Cargo.toml

start=$(date +%s)
echo "python.sh: cargo fmt and clippy of crates/oware-py"
cargo fmt --manifest-path "$MANIFEST" -- --check
cargo clippy --manifest-path "$MANIFEST" --all-targets --locked -- -D warnings \
  -D clippy::incompatible_msrv

ready() {
  "$PY_VENV/bin/python" - "$OPENSPIEL_VERSION" "${TEST_PACKAGES[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
wanted = {"open_spiel": sys.argv[1]}
wanted.update(p.split("==") for p in sys.argv[2:])
sys.exit(any(version(name) != v for name, v in wanted.items()))
PY
}
if ! ready; then
  echo "python.sh: making the venv $PY_VENV"
  rm -rf "$PY_VENV"
  command -v "$PYTHON" >/dev/null || install_python_with_apt
  if ! "$PYTHON" -m venv "$PY_VENV"; then
    rm -rf "$PY_VENV"
    install_python_with_apt
    "$PYTHON" -m venv "$PY_VENV"
  fi
  pip=("$PY_VENV/bin/python" -m pip install --quiet --disable-pip-version-check)
  "${pip[@]}" "${TEST_PACKAGES[@]}"
  # As scripts/lib/openspiel-venv.sh: a wheel only, without the dependencies of OpenSpiel's own
  # Python algorithms (pyspiel imports nothing). Last, so that pip's resolver, which would
  # complain of them, does not run after it.
  "${pip[@]}" --no-deps --only-binary=:all: "open_spiel==$OPENSPIEL_VERSION"
fi

echo "python.sh: pip install ./crates/oware-py"
built=$(date +%s)
CARGO_TARGET_DIR="$TARGET" "$PY_VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
  --force-reinstall --no-deps ./crates/oware-py
echo "python.sh: built and installed in $(( $(date +%s) - built )) s"

# From the crate's directory, so that `import oware` finds the installed package, not the sources.
(cd crates/oware-py && "$PY_VENV/bin/python" -m pytest -q tests)
echo "python.sh: done in $(( $(date +%s) - start )) s"
