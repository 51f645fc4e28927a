#!/usr/bin/env bash
# Runs every test of the project: formatting, lints, the Rust test suites (unit, integration, doc),
# then each extra suite in scripts/test.d/ (those install what they need themselves: Python packages
# for the OpenSpiel differential test, Chromium for the browser tests).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo test (workspace, release mode for the deep perft and search tests)"
cargo test --workspace --release --locked

for suite in scripts/test.d/*.sh; do
  [ -e "$suite" ] || continue
  echo "== $suite"
  bash "$suite"
done
echo "all test suites passed"
