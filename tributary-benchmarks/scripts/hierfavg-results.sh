#!/usr/bin/env bash
# Runs hierarchical FedAvg (Liu et al. 2020, HierFAVG) against flat FedAvg for docs/results.md
# with `tributary simulate`, then prints the table with hierfavg_table.py. Digits split
# dirichlet:0.1 over 20 clients, every client in every round, 4 edges of 5 clients (contiguous
# client ids), mlp, batch 16, lr 0.1, ROUNDS cloud rounds (default 30), for each of SEEDS
# (default "1 2 3"), JOBS runs at a time (default 2, each with --threads 1):
#   fedavg-e2        flat FedAvg, 2 local epochs per round
#   hierfavg-k2-K    HierFAVG, k1 = 2 local epochs, k2 = K edge rounds per cloud round, K in 1 2 5
#   fedavg-e10       flat FedAvg, 10 local epochs: the local work of one k2 = 5 cloud round
# A run whose metrics.jsonl is complete is not run again. TRIBUTARY is the launcher (default
# ./tributary of this checkout).
#
# Usage: tributary-benchmarks/scripts/hierfavg-results.sh [OUT_DIR=runs/hierfavg]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-runs/hierfavg}
rounds=${ROUNDS:-30}
seeds=${SEEDS:-1 2 3}
jobs=${JOBS:-2}
launcher=${TRIBUTARY:-$root/tributary}
common="--dataset digits --partition dirichlet:0.1 --clients 20 --clients-per-round 20 \
--rounds $rounds --threads 1"

plan() {
  local seed k
  for seed in $seeds; do
    echo "$out/fedavg-e2-seed$seed --algorithm fedavg --local-epochs 2 --seed $seed"
    for k in 1 2 5; do
      echo "$out/hierfavg-k2-$k-seed$seed --algorithm hierfavg --edges 4 --edge-rounds $k" \
        "--local-epochs 2 --seed $seed"
    done
    echo "$out/fedavg-e10-seed$seed --algorithm fedavg --local-epochs 10 --seed $seed"
  done
}

run_one() {
  local dir=$1
  shift
  if [[ -f $dir/metrics.jsonl ]] && [[ $(wc -l <"$dir/metrics.jsonl") -ge $rounds ]]; then
    return 0
  fi
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  # shellcheck disable=SC2086
  "$launcher" simulate "$@" $common --out "$dir" >"$dir.log" 2>&1
}
export -f run_one
export launcher rounds common

# The launcher builds the jar once, before the runs start in parallel.
"$launcher" --version >/dev/null
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
plan | xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' _
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$here/hierfavg_table.py" "$out"
