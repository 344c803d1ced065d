#!/usr/bin/env bash
# Times the FedProx paper protocol on Synthetic(1,1) two ways in one go and prints the comparison for
# docs/benchmarks.md ("## Simulation"): `tributary simulate` (the shaded CLI jar, JVM start-up, data
# generation and per-round scoring included), then the plain numpy implementation
# (fedprox_numpy.py), then `tributary simulate` again, so a drift in machine speed shows.
#
# Protocol (facts.md section 5): 30 devices, 10 per round, E=20, B=10, lr 0.01, mclr. numpy trains
# on its own draw of the data with the same per-device training sizes (read from the first run's
# clients.json), so both sides do the same amount of work up to which clients each samples; the
# examples-per-second ratio corrects for that.
#
# Tributary runs as `tributary simulate` runs by default, one client thread per core; THREADS
# sets `--threads` (1 for a one-thread comparison). The numpy implementation is plain numpy: one
# process, one BLAS thread.
#
# Usage: tributary-benchmarks/scripts/run-simulation.sh [ROUNDS=200] [fedavg|fedprox=fedavg] [SEED=1]
#            [THREADS=default]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1
rounds=${1:-200}
algorithm=${2:-fedavg}
seed=${3:-1}
threads=${4:-}
threads_flag=()
[[ -n $threads ]] && threads_flag=(--threads "$threads")
case $algorithm in
  fedavg) mu_flag=(); mu=0 ;;
  fedprox) mu_flag=(--mu 1); mu=1 ;;
  *) echo "usage: $0 [ROUNDS] [fedavg|fedprox] [SEED] [THREADS]" >&2; exit 2 ;;
esac
out="$root/tributary-benchmarks/target/results/simulation-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"

now() { date +%s.%N; }

tributary_run() {
  local dir=$1 t0 t1
  t0=$(now)
  "$root/tributary" simulate --algorithm "$algorithm" "${mu_flag[@]}" --dataset synthetic:1,1 \
    --model mclr --clients 30 --clients-per-round 10 --local-epochs 20 --batch-size 10 --lr 0.01 \
    --rounds "$rounds" --seed "$seed" "${threads_flag[@]}" --out "$dir" > "$dir.stdout" 2> "$dir.stderr"
  t1=$(now)
  echo "$t0 $t1" > "$dir.wall"
}

# Build first, so the first timed run does not include compiling.
"$root/tributary" --version > /dev/null

echo "tributary simulate (1/2)..." >&2
tributary_run "$out/tributary-1"
echo "numpy..." >&2
t0=$(now)
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
  MKL_NUM_THREADS=1 python3 "$here/fedprox_numpy.py" --rounds "$rounds" --mu "$mu" --seed "$seed" \
  --sizes-from "$out/tributary-1/clients.json" > "$out/numpy.json"
t1=$(now)
echo "$t0 $t1" > "$out/numpy.wall"
echo "tributary simulate (2/2)..." >&2
tributary_run "$out/tributary-2"

python3 - "$out" "$rounds" "$algorithm" "${threads:-default ($(nproc) cores)}" <<'PY'
import json, sys
out, rounds, algorithm, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def wall(name):
    a, b = open(f"{out}/{name}.wall").read().split()
    return float(b) - float(a)

rows = []
for name in ("tributary-1", "tributary-2"):
    metrics = [json.loads(l) for l in open(f"{out}/{name}/metrics.jsonl")]
    loop = sum(m["seconds"] for m in metrics)
    examples = sum(m["examples"] for m in metrics)
    rows.append((name, wall(name), loop, examples, metrics[-1]["train_loss"]))
np_result = json.load(open(f"{out}/numpy.json"))
rows.append(("numpy", wall("numpy"), np_result["seconds"], np_result["examples"],
             np_result["final_train_loss"]))

print(f"Synthetic(1,1), {algorithm}, {rounds} rounds, 30 devices, 10 per round, E=20, B=10, "
      f"tributary --threads {threads}; results in {out}")
print()
print("| run | wall s (process) | rounds s (loop) | examples trained x E | examples/s | "
      "final training loss |")
print("|---|---:|---:|---:|---:|---:|")
for name, w, loop, ex, loss in rows:
    print(f"| {name} | {w:.1f} | {loop:.1f} | {ex} x 20 | {ex * 20 / loop:,.0f} | {loss:.4f} |")
best = min(rows[:2], key=lambda r: r[1])
np_row = rows[2]
print()
print(f"numpy / tributary, wall clock (faster tributary run): {np_row[1] / best[1]:.1f}x")
t_rate = max(r[3] / r[2] for r in rows[:2])
print(f"tributary / numpy, training examples per second in the round loop: "
      f"{t_rate / (np_row[3] / np_row[2]):.1f}x")
PY
