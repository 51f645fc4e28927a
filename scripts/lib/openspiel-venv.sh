# Sourced by scripts/test.d/openspiel.sh and scripts/strength.sh: a venv at openspiel-venv in cargo's
# target directory (target/, or CARGO_TARGET_DIR) with a pinned OpenSpiel in it, made on a bare Debian
# machine too. Defines VENV and OPENSPIEL_VERSION (and TARGET, scripts/lib/target-dir.sh) and the
# function ensure_openspiel_venv; honours PYTHON (default python3).

. scripts/lib/target-dir.sh
OPENSPIEL_VERSION=2.0.2
VENV=$TARGET/openspiel-venv
PYTHON="${PYTHON:-python3}"

# A bare Debian machine may lack Python, or have it without the venv module (python3-venv).
install_python_with_apt() {
  echo "installing python3 and python3-venv with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >/dev/null
  PYTHON=python3
}

ensure_openspiel_venv() {
  if "$VENV/bin/python" -c "import pyspiel; assert pyspiel.__version__ == '$OPENSPIEL_VERSION'" \
    2>/dev/null; then
    return
  fi
  command -v "$PYTHON" >/dev/null || install_python_with_apt
  if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    echo "$("$PYTHON" --version 2>&1) is too old: OpenSpiel $OPENSPIEL_VERSION has wheels for" \
      "CPython 3.11 to 3.14 only" >&2
    exit 1
  fi
  echo "installing open_spiel==$OPENSPIEL_VERSION into $VENV"
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
}
