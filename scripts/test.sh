#!/usr/bin/env bash
# Runs every test of the project: formatting, lints, the declared minimum Rust, the Rust test suites
# (unit, integration, doc), then each extra suite in scripts/test.d/ (those install what they need
# themselves: Python packages for the OpenSpiel differential test, Chromium for the browser tests,
# Caddy for the test behind a reverse proxy).
# About 26 minutes on 2 cores once the dependencies are compiled (the README gives the figures).
# Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
# set -e alone stops without a word; say which command failed.
trap 'echo "test.sh: FAILED (exit $?): $BASH_COMMAND" >&2' ERR

# The server's fault tests (crates/oware-cli/tests/serve_faults.rs) inject disk errors into a
# running server with strace.
if ! command -v strace >/dev/null; then
  echo "== installing strace with apt-get (the server's fault tests need it)"
  SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq strace >/dev/null
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check

# rust-version in Cargo.toml is the oldest Rust the workspace builds with. Only the current toolchain
# is at hand, so it is checked in two ways: clippy's incompatible_msrv refuses any standard-library
# API newer than it (denied explicitly, in case lint groups change), and no locked dependency for
# this platform may need a newer compiler than it. Language features are not checked (see Cargo.toml).
echo "== rust-version"
declared=$(sed -n 's/^rust-version = "\([0-9.]*\)"$/\1/p' Cargo.toml)
host=$(rustc -vV | sed -n 's/^host: //p')
needed=$(cargo metadata --format-version 1 --locked --filter-platform "$host" |
  grep -o '"rust_version":"[0-9.]*"' | cut -d'"' -f4 | sort -V | tail -n 1)
if [ -z "$declared" ] || [ -z "$needed" ]; then
  echo "test.sh: could not read rust-version from Cargo.toml or from cargo metadata" >&2
  exit 1
fi
if [ "$(printf '%s\n' "$needed" "$declared" | sort -V | tail -n 1)" != "$declared" ]; then
  echo "test.sh: a locked dependency needs Rust $needed, newer than rust-version $declared" >&2
  exit 1
fi
echo "rust-version $declared (the newest a locked dependency asks for: $needed)"

echo "== cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings -D clippy::incompatible_msrv
echo "== cargo doc (every intra-doc link of the library crates resolves; the binary's doc comments are its --help text)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --exclude oware-cli --no-deps --locked --quiet
echo "== cargo test (workspace, release mode for the deep perft and search tests)"
cargo test --workspace --release --locked

for suite in scripts/test.d/*.sh; do
  [ -e "$suite" ] || continue
  echo "== $suite"
  status=0
  bash "$suite" || status=$?
  if [ "$status" != 0 ]; then
    echo "test.sh: FAILED: $suite exited with status $status" >&2
    exit "$status"
  fi
done
echo "all test suites passed"
