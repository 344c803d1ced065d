#!/usr/bin/env bash
# Tributary against PyTorch (CPU) in one run, for docs/benchmarks.md ("## Local training against
# PyTorch"): float32 matmul 512^3, one epoch of the FedAvg 2NN and one of its CNN (batch 32, SGD),
# at each thread count, PyTorch (scripts/torch_anchor.py), then Tributary (LocalTrainingRace:
# `vector`, with `--add-modules jdk.incubator.vector` as the README recommends for training, and
# `plain`, a `java -cp` with no options), then PyTorch again; prints medians and ratios, by wall
# clock and by the processes' CPU seconds (what still compares when others share the cores).
#
# PyTorch comes from the machine's local wheel folders (`find / -name 'torch-*.whl'`, a +cpu build
# preferred, or TORCH_WHEEL=path) into a venv under tributary-benchmarks/target/torch-venv (no
# network). Preconditions, each named when it fails: torch importable in that venv; the 1-minute
# load average at most MAX_LOAD (default 1.0; ALLOW_LOAD=1 runs anyway and marks the figures as
# taken under load); every thread count at most the machine's cores; and both sides reporting the
# thread count asked for.
#
# Usage: [THREADS="1 2"] [REPS=5] [SAMPLES=10000] [CNN_SAMPLES=10000] [CASES=matmul,2nn,cnn]
#        [VARIANTS="vector plain"] [SKIP_BUILD=1] tributary-benchmarks/scripts/run-pytorch.sh
# Expected on an idle machine at REPS=5 with CNN_SAMPLES=2000 (the table's command): about 3
# minutes.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench-env.sh
source "$here/bench-env.sh"

THREADS=${THREADS:-"1 2"}
REPS=${REPS:-5}
SAMPLES=${SAMPLES:-10000}
CNN_SAMPLES=${CNN_SAMPLES:-10000}
CASES=${CASES:-matmul,2nn,cnn}
VARIANTS=${VARIANTS:-vector plain}
MAX_LOAD=${MAX_LOAD:-1.0}
venv="$root/tributary-benchmarks/target/torch-venv"
failed=()

torch_ok() { [[ -x $venv/bin/python ]] && "$venv/bin/python" -c 'import torch' 2>/dev/null; }

if ! torch_ok; then
  wheel=${TORCH_WHEEL:-}
  if [[ -z $wheel ]]; then
    # A +cpu build first (no CUDA libraries to pull in), then the newest version.
    mapfile -t wheels < <(find / -name 'torch-*.whl' 2>/dev/null | sort -r)
    for w in "${wheels[@]}"; do [[ $w == *+cpu* ]] && { wheel=$w; break; }; done
    [[ -n $wheel || ${#wheels[@]} == 0 ]] || wheel=${wheels[0]}
  fi
  if [[ -z $wheel ]]; then
    echo "precondition failed: no torch-*.whl in the local wheel folders (set TORCH_WHEEL)" >&2
    exit 1
  fi
  echo "building $venv from $wheel..." >&2
  links=(--find-links "$(dirname "$wheel")")
  # torch's dependencies (sympy, networkx, jinja2, ...) from whichever local folders hold them.
  while IFS= read -r dir; do links+=(--find-links "$dir"); done < <(
    find / \( -name 'sympy-*.whl' -o -name 'typing_extensions-*.whl' -o -name 'numpy-*.whl' \) \
      -printf '%h\n' 2>/dev/null | sort -u)
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --no-index "${links[@]}" "$wheel" numpy >&2 \
    || echo "pip could not install $wheel from the local folders" >&2
fi
torch_ok || failed+=("torch is not importable in $venv")

cores=$(nproc)
for t in $THREADS; do
  ((t <= cores)) || failed+=("$t threads asked for, the machine has $cores cores")
done
# shellcheck source=load-check.sh
source "$here/load-check.sh"
check_load
if ((${#failed[@]})); then
  printf 'precondition failed: %s\n' "${failed[@]}" >&2
  exit 1
fi

build_benchmarks
jar="$root/tributary-benchmarks/target/benchmarks.jar"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
results="$out/pytorch-$stamp.jsonl"
started=$(date -u '+%Y-%m-%d %H:%M UTC')
echo "{\"started\": \"$started\", \"load_start\": [$load1, $load5, $load15], \"cores\": $cores," \
  "\"under_load\": \"$under_load\"}" > "$results"
for t in $THREADS; do
  echo "threads $t: PyTorch (1/2)..." >&2
  OMP_NUM_THREADS=$t MKL_NUM_THREADS=$t "$venv/bin/python" "$here/torch_anchor.py" \
    "$t" "$REPS" "$SAMPLES" "$CNN_SAMPLES" "$CASES" | sed "s/^{/{\"threads_asked\": $t, /" \
    >> "$results"
  for v in $VARIANTS; do
    echo "threads $t: Tributary ($v)..." >&2
    opts=()
    [[ $v == vector ]] && opts=(--add-modules jdk.incubator.vector)
    "$JAVA_HOME/bin/java" "${opts[@]}" -cp "$jar" io.tributary.bench.LocalTrainingRace \
      "$t" "$REPS" "$SAMPLES" "$CNN_SAMPLES" "$CASES" | sed "s/^{/{\"threads_asked\": $t, \"variant\": \"$v\", /" \
      >> "$results"
  done
  echo "threads $t: PyTorch (2/2)..." >&2
  OMP_NUM_THREADS=$t MKL_NUM_THREADS=$t "$venv/bin/python" "$here/torch_anchor.py" \
    "$t" "$REPS" "$SAMPLES" "$CNN_SAMPLES" "$CASES" | sed "s/^{/{\"threads_asked\": $t, /" \
    >> "$results"
done
read -r end1 _ < /proc/loadavg
echo "{\"load_end\": $end1}" >> "$results"
python3 "$here/torch_report.py" "$results"
