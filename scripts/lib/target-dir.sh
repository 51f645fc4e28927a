# Sourced by the scripts that run what cargo builds: defines TARGET, the absolute path of cargo's
# target directory. Cargo itself is asked, so CARGO_TARGET_DIR (relative to the repository root,
# where the scripts run cargo) and build.target-dir in a .cargo/config.toml count as they do for cargo
# build; without either it is the repository's target/.

TARGET=$(cargo metadata --format-version 1 --no-deps |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p') || TARGET=
if [ -z "$TARGET" ]; then
  echo "${0##*/}: cargo metadata did not say where cargo's target directory is" >&2
  exit 1
fi

# The release `oware` that `cargo build --release -p oware-cli` made, or a message and exit 1.
oware_binary() {
  local binary="$TARGET/release/oware"
  if [ ! -x "$binary" ]; then
    echo "${0##*/}: no release oware at $binary (cargo build --release -p oware-cli first)" >&2
    exit 1
  fi
  echo "$binary"
}
