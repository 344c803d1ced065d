#!/usr/bin/env bash
# The FedProx protocol race for docs/benchmarks.md ("## Simulation") and the README's headline:
# `tributary simulate` against the plain numpy implementation (fedprox_numpy.py, unchanged), one
# seed at a time, REPS seeds (1..REPS), each as Tributary, numpy, Tributary, so a drift in machine
# speed shows; prints the per-seed figures and their medians, by wall clock and by CPU seconds
# (user + system of each process and its children: what still compares when others share the
# cores), with the load average at the start and end of each seed. fedprox_race.py runs and
# reports; this script checks the preconditions first.
#
# Protocol (facts.md section 5): Synthetic(1,1), 30 devices, 10 per round, E=20, B=10, lr 0.01,
# mclr, ROUNDS rounds; ALGORITHM fedavg (mu 0) or fedprox (mu 1). Tributary runs as a user runs
# it: `./tributary simulate`, a plain `java -jar` with no JVM options (TRIBUTARY_JAVA_OPTS is
# cleared; VECTOR=1 sets it to `--add-modules jdk.incubator.vector`, what the README recommends for
# runs longer than a few seconds), one client thread per core unless THREADS sets `--threads`. numpy runs with one BLAS
# thread, on its own draw of the data with the same per-device training sizes (from the first
# Tributary run's clients.json).
#
# Preconditions, each named when it fails (nothing is timed then): numpy importable by python3;
# numpy's OpenBLAS reporting the one thread asked for; THREADS at most the machine's cores, and
# Tributary's config.json recording the thread count asked for; the 1-minute load average at most
# MAX_LOAD (default 1.0; ALLOW_LOAD=1 runs anyway and marks every figure as taken under load). After
# the runs, the two Tributary runs of a seed must agree bit for bit (final.npz), or no ratio is
# printed.
#
# Usage: [REPS=5] [ROUNDS=200] [ALGORITHM=fedavg|fedprox] [THREADS=cores] [VECTOR=1] [MAX_LOAD=1.0]
#        [ALLOW_LOAD=1] tributary-benchmarks/scripts/run-fedprox-protocol.sh
# Expected on an idle machine at REPS=5: about 8-10 minutes on the Xeon, with VECTOR=1 or without (6
# and 7 on the EPYC, whose numpy ran faster).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
REPS=${REPS:-5}
ROUNDS=${ROUNDS:-200}
ALGORITHM=${ALGORITHM:-fedavg}
THREADS=${THREADS:-}
MAX_LOAD=${MAX_LOAD:-1.0}
cores=$(nproc)
failed=()

case $ALGORITHM in
  fedavg | fedprox) ;;
  *) failed+=("ALGORITHM is '$ALGORITHM', not fedavg or fedprox") ;;
esac
[[ $REPS =~ ^[1-9][0-9]*$ ]] || failed+=("REPS is '$REPS', not a positive integer")
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || failed+=("ROUNDS is '$ROUNDS', not a positive integer")
if [[ -n $THREADS ]]; then
  if ! [[ $THREADS =~ ^[1-9][0-9]*$ ]]; then
    failed+=("THREADS is '$THREADS', not a positive integer")
  elif ((THREADS > cores)); then
    failed+=("THREADS=$THREADS asked for, the machine has $cores cores")
  fi
fi
# The anchor's environment: one BLAS thread, whatever the caller's settings.
numpy_env=(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
  MKL_NUM_THREADS=1)
if ! "${numpy_env[@]}" python3 -c 'import numpy' 2>/dev/null; then
  failed+=("numpy is not importable by $(command -v python3 || echo python3)")
else
  blas_threads=$("${numpy_env[@]}" python3 "$here/fedprox_race.py" --blas-threads 2>&1) \
    || blas_threads="unknown ($blas_threads)"
  [[ $blas_threads == 1 ]] \
    || failed+=("numpy's BLAS reports $blas_threads threads, not the 1 asked for")
fi
# shellcheck source=load-check.sh
source "$here/load-check.sh"
check_load
if ((${#failed[@]})); then
  printf 'precondition failed: %s\n' "${failed[@]}" >&2
  exit 1
fi

# Build first, so no timed run includes compiling.
"$root/tributary" --version > /dev/null
out="$root/tributary-benchmarks/target/results/fedprox-protocol-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
java_opts=()
[[ ${VECTOR:-0} == 1 ]] && java_opts=("TRIBUTARY_JAVA_OPTS=--add-modules jdk.incubator.vector")
exec env -u TRIBUTARY_JAVA_OPTS "${java_opts[@]}" python3 "$here/fedprox_race.py" --root "$root" --out "$out" \
  --reps "$REPS" --rounds "$ROUNDS" --algorithm "$ALGORITHM" --threads "${THREADS:-$cores}" \
  --threads-flag "${THREADS:+yes}" --cores "$cores" --under-load "$under_load"
