#!/usr/bin/env bash
# The distributed build under MPI (`oware egtb build --mpi`, crates/oware-egtb-build): builds the
# `mpi` feature (installing Open MPI and libclang with apt-get when they are missing), lints and
# documents it (the workspace's clippy and doc in test.sh build without it, so they never see the
# MPI code), then
#   - mpirun -np 1, 2, 3 and 4 builds of awari up to MPI_SEEDS seeds (default 14), with each way of
#     reading lower levels, must write files byte-identical to the one-process build's;
#   - a run stopped after a level and resumed with another number of ranks, the same;
#   - a rank killed (SIGKILL) in the middle of a level must end the job with an error naming that
#     level and leave no file of it; a rerun with another number of ranks finishes, byte-identical;
#   - abapa (threshold solver and searches across ranks) up to MPI_ABAPA_SEEDS seeds (default 11)
#     with np 1, 2 and 3, byte-identical to the one-process build's, and a rank killed during an
#     abapa level, as for awari.
#
# Environment: MPI_SEEDS (default 14), MPI_ABAPA_SEEDS (default 11), CARGO_TARGET_DIR (honoured),
# MPIRUN (default mpirun).
set -euo pipefail
cd "$(dirname "$0")/../.."

SEEDS="${MPI_SEEDS:-14}"
ABAPA_SEEDS="${MPI_ABAPA_SEEDS:-11}"
KILL_LEVEL=$((SEEDS - 2))
RESUME_LEVEL=$((SEEDS - 4))

have_libclang() {
  ldconfig -p 2>/dev/null | grep -q 'libclang[-.0-9]*\.so' || ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1
}
if ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null || ! have_libclang; then
  echo "mpi.sh: installing Open MPI and libclang"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openmpi-bin libopenmpi-dev libclang-dev clang >/dev/null
fi

echo "== cargo clippy and cargo doc with --features mpi"
cargo clippy -p oware-egtb-build -p oware-cli --features mpi --all-targets --locked -- \
  -D warnings -D clippy::incompatible_msrv
RUSTDOCFLAGS="-D warnings" cargo doc -p oware-egtb-build --features mpi --no-deps --locked --quiet

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The MPI binary is copied aside, and the default one put back where the other suites expect it
# (cargo keeps both builds, so switching back only copies).
cargo build --release --locked -p oware-cli --features mpi
OWARE="$WORK/oware-mpi"
cp "${CARGO_TARGET_DIR:-target}/release/oware" "$OWARE"
cargo build --release --locked -p oware-cli

# Root in CI containers; more ranks than cores; shared memory without ptrace-based single copy
# (containers usually forbid it).
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
# Ranks waiting in an exchange yield the core (more ranks than cores here).
export OMPI_MCA_mpi_yield_when_idle=1
MPIRUN="${MPIRUN:-mpirun} --allow-run-as-root --oversubscribe"

same_files() { # reference dir, dir, highest level[, rule set (default awari)]
  rules=${4:-awari}
  for level in $(seq 0 "$3"); do
    name=$(printf '%s-%02d.oegtb' "$rules" "$level")
    cmp "$1/$name" "$2/$name"
  done
  extra=$(ls "$2" | grep -v "^$rules-[0-9][0-9]\.oegtb$" || true)
  if [ -n "$extra" ]; then
    echo "mpi.sh: left behind in $2: $extra" >&2
    exit 1
  fi
}

# killed_rank RULES SEEDS RANK LEVEL REFERENCE DIR [build options]: a 3-rank build of RULES up to
# SEEDS whose rank RANK is killed during LEVEL must fail, name that level and leave no file of it;
# a 2-rank build then resumes in DIR and must match the files in REFERENCE.
killed_rank() {
  local rules=$1 seeds=$2 rank=$3 level=$4 reference=$5 dir=$6
  shift 6
  echo "== $rules, rank $rank of 3 killed during level $level"
  if $MPIRUN -np 3 "$OWARE" egtb build --mpi "$@" --rules "$rules" --max-seeds "$seeds" \
    --dir "$dir" --threads 1 --test-kill-rank "$rank:$level" >"$dir.out" 2>&1; then
    echo "mpi.sh: the $rules job with a killed rank succeeded" >&2
    cat "$dir.out" >&2
    exit 1
  fi
  if ! grep -q "while building $rules level $level" "$dir.out"; then
    echo "mpi.sh: no error naming $rules level $level:" >&2
    cat "$dir.out" >&2
    exit 1
  fi
  grep "while building" "$dir.out"
  if [ -e "$dir/$(printf '%s-%02d.oegtb' "$rules" "$level")" ]; then
    echo "mpi.sh: a file of the $rules level being built when the rank died was left" >&2
    exit 1
  fi
  $MPIRUN -np 2 "$OWARE" egtb build --mpi --rules "$rules" --max-seeds "$seeds" --dir "$dir" \
    --threads 1 | tail -n 2
  same_files "$reference" "$dir" "$seeds" "$rules"
}

start=$(date +%s)
"$OWARE" egtb build --rules awari --max-seeds "$SEEDS" --dir "$WORK/one" --threads 2 | tail -n 1

modes=(mapped messages replicated messages)
for np in 1 2 3 4; do
  mode=${modes[$((np - 1))]}
  echo "== mpirun -np $np, lower levels $mode"
  $MPIRUN -np "$np" "$OWARE" egtb build --mpi --lower "$mode" --rules awari --max-seeds "$SEEDS" \
    --dir "$WORK/np$np" --threads 1 | tail -n 3
  same_files "$WORK/one" "$WORK/np$np" "$SEEDS"
done

echo "== stopped after level $RESUME_LEVEL with 3 ranks, resumed with 2"
$MPIRUN -np 3 "$OWARE" egtb build --mpi --lower messages --rules awari --max-seeds "$RESUME_LEVEL" \
  --dir "$WORK/resume" --threads 1 | tail -n 1
$MPIRUN -np 2 "$OWARE" egtb build --mpi --rules awari --max-seeds "$SEEDS" --dir "$WORK/resume" \
  --threads 1 | tail -n 2
same_files "$WORK/one" "$WORK/resume" "$SEEDS"

killed_rank awari "$SEEDS" 1 "$KILL_LEVEL" "$WORK/one" "$WORK/killed" --lower messages

echo "== abapa up to $ABAPA_SEEDS seeds"
"$OWARE" egtb build --rules abapa --max-seeds "$ABAPA_SEEDS" --dir "$WORK/abapa-one" --threads 2 |
  tail -n 1
abapa_modes=(mapped replicated mapped)
for np in 1 2 3; do
  mode=${abapa_modes[$((np - 1))]}
  echo "== abapa, mpirun -np $np, lower levels $mode"
  $MPIRUN -np "$np" "$OWARE" egtb build --mpi --lower "$mode" --rules abapa \
    --max-seeds "$ABAPA_SEEDS" --dir "$WORK/abapa-np$np" --threads 1 | tail -n 3
  same_files "$WORK/abapa-one" "$WORK/abapa-np$np" "$ABAPA_SEEDS" abapa
done

killed_rank abapa "$ABAPA_SEEDS" 2 "$((ABAPA_SEEDS - 1))" "$WORK/abapa-one" "$WORK/abapa-killed"

echo "mpi.sh: all distributed builds byte-identical in $(( $(date +%s) - start )) s"
