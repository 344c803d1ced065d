#!/usr/bin/env bash
# Runs the algorithm suite for docs/results.md with `tributary simulate` and prints the tables
# with suite_table.py. Three experiments (EXPERIMENT, default all):
#   synthetic  every algorithm on Synthetic(1,1) with the FedProx paper's protocol (30 devices,
#              10 per round, E=20, B=10, lr 0.01, mclr), ROUNDS rounds (default 200)
#   dirichlet  every algorithm on digits split dirichlet:0.1 (20 clients, 10 per round, 50 rounds)
#   byzantine  the robust aggregators and FedAvg on digits iid (20 clients, 10 per round, 30
#              rounds), clean and with 2 of the 10 clients Byzantine (--byzantine 2:scale:-10,
#              2:signflip, 2:noise:1)
# for each of SEEDS (default "1 2 3"), JOBS runs at a time (default 2, each with --threads 1).
# Each algorithm takes Flower's defaults, plus: fedprox --mu 1 on synthetic (the paper's), Krum
# and Multi-Krum --krum-f 2 (Multi-Krum --krum-m 5), Bulyan --krum-f 1 (Bulyan needs n > 4f + 2
# updates, so f = 2 would need 11 clients per round). A run whose metrics.jsonl is complete is
# not run again. TRIBUTARY is the launcher (default ./tributary of this checkout).
#
# Usage: tributary-benchmarks/scripts/suite-results.sh [OUT_DIR=runs/suite] [EXPERIMENT=all]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-runs/suite}
experiment=${2:-all}
rounds=${ROUNDS:-200}
seeds=${SEEDS:-1 2 3}
jobs=${JOBS:-2}
launcher=${TRIBUTARY:-$root/tributary}
all="fedavg fedavgm fedprox fedadam fedyogi fedadagrad fedmedian fedtrimmedavg krum multikrum bulyan"
robust="fedavg fedmedian fedtrimmedavg krum multikrum bulyan"

# The flags an algorithm needs beyond Flower's defaults.
options() {
  case $1 in
    krum) echo "--krum-f 2" ;;
    multikrum) echo "--krum-f 2 --krum-m 5" ;;
    bulyan) echo "--krum-f 1" ;;
  esac
}

# One line per run: DIR ROUNDS FLAGS...
plan() {
  local seed alg attack
  for seed in $seeds; do
    if [[ $experiment == all || $experiment == synthetic ]]; then
      for alg in $all; do
        local mu=""
        [[ $alg == fedprox ]] && mu="--mu 1"
        echo "$out/synthetic/$alg-seed$seed $rounds --algorithm $alg $mu $(options "$alg")" \
          "--dataset synthetic:1,1 --model mclr --clients 30 --clients-per-round 10" \
          "--local-epochs 20 --batch-size 10 --lr 0.01 --rounds $rounds --seed $seed"
      done
    fi
    if [[ $experiment == all || $experiment == dirichlet ]]; then
      for alg in $all; do
        echo "$out/dirichlet/$alg-seed$seed 50 --algorithm $alg $(options "$alg")" \
          "--dataset digits --partition dirichlet:0.1 --clients 20 --clients-per-round 10" \
          "--rounds 50 --seed $seed"
      done
    fi
    if [[ $experiment == all || $experiment == byzantine ]]; then
      for alg in $robust; do
        for attack in clean scale:-10 signflip noise:1; do
          local flag=""
          [[ $attack != clean ]] && flag="--byzantine 2:$attack"
          echo "$out/byzantine/$alg-${attack//:/}-seed$seed 30 --algorithm $alg" \
            "$(options "$alg") $flag --dataset digits --partition iid --clients 20" \
            "--clients-per-round 10 --rounds 30 --seed $seed"
        done
      done
    fi
  done
}

# Runs one planned line unless its metrics.jsonl already holds every round.
run_one() {
  local dir=$1 want=$2
  shift 2
  if [[ -f $dir/metrics.jsonl ]] && (( $(wc -l < "$dir/metrics.jsonl") == want )); then
    return 0
  fi
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  # shellcheck disable=SC2086
  if ! $launcher simulate "$@" --threads 1 --out "$dir" > "$dir.log" 2>&1; then
    echo "$dir: failed (see $dir.log)" >&2
  fi
}
export -f run_one
export launcher

plan | xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' _
python3 "$here/suite_table.py" "$out"
