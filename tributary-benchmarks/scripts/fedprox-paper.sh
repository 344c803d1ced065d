#!/usr/bin/env bash
# Reproduces the FedProx paper's Synthetic(1,1) comparison (Li et al. 2020; protocol in facts.md
# section 5) with `tributary simulate`: FedAvg and FedProx (mu=1), 30 devices, 10 per round, E=20,
# B=10, lr 0.01, mclr, ROUNDS rounds, for each SEED; then prints the table of docs/results.md.
#
# Usage: tributary-benchmarks/scripts/fedprox-paper.sh [OUT_DIR=runs/fedprox-paper] [ROUNDS=200] [SEEDS="1 2 3"]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-runs/fedprox-paper}
rounds=${2:-200}
seeds=${3:-1 2 3}
mkdir -p "$out"
for seed in $seeds; do
  for algorithm in fedavg fedprox; do
    mu_flag=()
    [[ $algorithm == fedprox ]] && mu_flag=(--mu 1)
    dir="$out/$algorithm-seed$seed"
    if [[ -f $dir/metrics.jsonl ]] && (( $(wc -l < "$dir/metrics.jsonl") == rounds )); then
      echo "$dir: done already" >&2
      continue
    fi
    rm -rf "$dir"
    echo "$algorithm, seed $seed..." >&2
    "$root/tributary" simulate --algorithm "$algorithm" "${mu_flag[@]}" --dataset synthetic:1,1 \
      --model mclr --clients 30 --clients-per-round 10 --local-epochs 20 --batch-size 10 \
      --lr 0.01 --rounds "$rounds" --seed "$seed" --out "$dir" > "$dir.log" 2>&1
  done
done
python3 "$here/fedprox_table.py" "$out"
