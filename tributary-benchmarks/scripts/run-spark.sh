#!/usr/bin/env bash
# The Spark engine (issue 21 item 5) against the local runtime, in one run, and prints the tables
# for docs/benchmarks.md ("## Spark engine (issue 21)"):
#
#  overhead  the FedProx paper's protocol (docs/results.md) on --engine local, local[2] and a
#            loopback standalone cluster of 2 workers x 1 core (spark://): seconds per round
#            (metrics.jsonl's `seconds`: median and total), whether final.npz is the same bytes,
#            and the Spark runs' time split from their event logs (spark_eventlog.py).
#  scale     rounds of fashion-mnist mclr (7,850 parameters, 60,000 clients of one example each,
#            E=1, B=10) as clients per round grow, on the same three engines, with the time split
#            and the peak heap of the driver and of each executor (GC logs: the largest heap in
#            use seen before a collection; and Spark's executor metrics).
#
# Every figure is from this machine at the time; `uptime` is printed beside each run. The cluster
# this script starts is stopped on exit (also on failure or Ctrl-C).
#
#  product  the same with the FedAvg 2NN (mlp, 199,210 parameters) and PRODUCT_CLIENTS per round:
#            the largest model x clients product measured here.
#
#  live     the live heap (after a full collection) of the driver and of each executor, sampled
#            with jcmd during cluster runs of LIVE_CLIENTS clients per round (mclr).
#
#  population  rounds of a generated population (--dataset generated:784,10,1: one example of
#            784 features per client, made from the seed where it is needed; mclr, 7,850
#            parameters) as clients per round grow to a million (POPULATION_CLIENTS; the
#            population is the round's cohort, so the evaluation on the training data covers the
#            same clients), on the three engines, live heaps sampled on the cluster.
#
#  million  MILLION_CLIENTS per round of a 1,000,000-parameter model (generated:99999,10,1,
#            mclr: 99,999 x 10 + 10 parameters), one round, on the cluster with the live heaps
#            sampled every 10 s, and on the local engine for the smallest count (MILLION_ENGINES
#            "local cluster" by default; "local" or "cluster" runs one of them). Every run also
#            records the driver's CPU seconds (/usr/bin/time; with the local engine, all of it).
#
#  traffic  what the driver receives per pass as the tasks per pass grow (TRAFFIC_TASKS), with
#            the executors combining each pass into one part per executor (the default) and into
#            as many parts as tasks (tributary.combinedParts = the tasks, aligned ranges: at most
#            that many parts, as the driver received one per task before the second stage), for
#            TRAFFIC_CLIENTS per round of the 1,000,000-parameter model of `million`, one round:
#            the parts' bytes per pass (the engine's debug line) and the tasks' result bytes
#            (the event log).
#
# Usage: [REPS=5] tributary-benchmarks/scripts/run-spark.sh
#          [overhead|scale|product|live|population|million|traffic|all=all but million, traffic]
#   (several parts: comma-separated, e.g. overhead,scale)
#   REPS repetitions of the whole part, every engine's run in each, one cluster for all of them
#   (so the engines interleave: local, local[2], cluster, local, ...); results of repetition R in
#   RESULTS/rep-R (each one's full report: spark_report.py RESULTS/rep-R), and spark_reps.py
#   prints the medians over the repetitions, their ranges and docs/benchmarks.md's rows. `live`
#   samples the live heap (jcmd, a full collection each sample, which slows the run it samples)
#   only in the first repetition's cluster runs, as do population and million.
#   Expected on an idle machine at REPS=5 (estimates from the loaded runs' times, halved):
#   overhead,scale about 10 minutes; product about 10; population about 20 (its 1,000,000 row
#   alone ~2.5 minutes a repetition; POPULATION_CLIENTS="1000 10000 100000" ~6 minutes);
#   traffic (4,000 clients, 3 x 2 cluster runs) about 15; million at 100,000 clients (cluster
#   only) about 10; live about 3 a repetition.
#   ROUNDS=50 (overhead: the median s/round; 200 before 2026-11-29, the same steady state),
#   SCALE_ROUNDS=3, SCALE_CLIENTS="1000 10000 60000",
#   SCALE_TIMEOUT=300 (seconds per configuration; a run past it is stopped and reported),
#   PRODUCT_CLIENTS=10000, LIVE_CLIENTS="1000 60000", PARTITIONS=4 (Spark tasks per pass),
#   POPULATION_CLIENTS="1000 10000 100000 1000000", POPULATION_ROUNDS=2,
#   MILLION_CLIENTS="100000 1000000", MILLION_TIMEOUT=5400, MILLION_ENGINES="local cluster",
#   TRAFFIC_TASKS="2 8 32", TRAFFIC_CLIENTS=4000, TRAFFIC_ENGINE=cluster|local[N]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
what=${1:-all}
# shellcheck source=../../.ci/find-jdk.sh
source "$root/.ci/find-jdk.sh"
JAVA_HOME=$(tributary_find_jdk) || { tributary_no_jdk_message; exit 1; }
export JAVA_HOME
# shellcheck source=load-check.sh
source "$here/load-check.sh"
require_idle # MAX_LOAD (default 1.0) or ALLOW_LOAD=1
rounds=${ROUNDS:-50}
reps=${REPS:-5}
# wants PART: whether this run includes PART (`all`: overhead, scale, product, live).
wants() {
  local w
  IFS=, read -r -a w <<<"$what"
  for x in "${w[@]}"; do
    [[ $x == "$1" || ($x == all && " overhead scale product live " == *" $1 "*) ]] && return 0
  done
  return 1
}
scale_rounds=${SCALE_ROUNDS:-3}
scale_clients=${SCALE_CLIENTS:-1000 10000 60000}
scale_timeout=${SCALE_TIMEOUT:-300}
partitions=${PARTITIONS:-4}
base="$root/tributary-benchmarks/target/results/spark-$(date +%Y%m%d-%H%M%S)"
out=$base
mkdir -p "$out"
echo "results in $out" >&2

# The driver's GC log: one setting for every run (the launcher keys its start-up cache on the JVM
# options, so a per-run path would rebuild the cache before each run); each run's file is moved
# beside its results.
gc="$out/gc"
mkdir -p "$gc"
# The driver also logs how long it spends decoding and merging each pass's parts (the runtime's
# Planner, at debug), which the report adds up.
# The Spark engine logs each pass's tasks, parts and the bytes the driver received, at debug.
gc_opts="-Xlog:gc:file=$gc/driver-%p.log -Dorg.slf4j.simpleLogger.log.io.tributary.runtime.executor.internal.federated.Planner=debug -Dorg.slf4j.simpleLogger.log.io.tributary.spark.SparkPassEngine=debug"
# Build first (CLI jar, tributary-spark's class path) with one
# untimed round on each kind of engine, so no timed run includes it.
JDK_JAVA_OPTIONS=$gc_opts "$root/tributary" simulate --dataset synthetic:1,1 --model mclr \
  --rounds 1 --engine "local[2]" --out "$out/warmup" > "$out/warmup.log" 2>&1
rm -f "$gc"/driver-*.log

cluster_dir="$out/cluster"
master=
stop_cluster() {
  if [[ -n $master ]]; then
    "$root/tributary" spark-cluster stop --dir "$cluster_dir" >&2 || true
    master=
  fi
}
trap stop_cluster EXIT
# traffic on local[2] (TRAFFIC_ENGINE=local[2]) needs no cluster: Spark in the driver's JVM, whose
# passes are combined into one part.
if [[ $what == traffic && ${TRAFFIC_ENGINE:-cluster} != cluster ]]; then
  master=
  traffic_engine=$TRAFFIC_ENGINE
else
echo "starting a loopback cluster: 2 workers x 1 core, 3g each..." >&2
master=$("$root/tributary" spark-cluster start --workers 2 --cores 1 --memory 3g \
  --dir "$cluster_dir" | grep -o 'spark://[0-9.:]*' | head -n 1)
[[ -n $master ]] || { echo "the cluster did not start" >&2; exit 1; }
echo "cluster: $master" >&2
traffic_engine=$master
fi

# run NAME ENGINE TIMEOUT ARGS...: one simulate, its wall time, load and (Spark) event log.
run() {
  local name=$1 engine=$2 limit=$3 dir="$out/$1" t0 t1 rc=0
  shift 3
  local spark=()
  if [[ $engine != local ]]; then
    mkdir -p "$dir.events"
    spark=(--partitions "${run_partitions:-$partitions}"
      --spark-conf spark.eventLog.enabled=true --spark-conf "spark.eventLog.dir=$dir.events"
      --spark-conf spark.eventLog.compress=false
      --spark-conf spark.eventLog.logStageExecutorMetrics=true
      --spark-conf spark.executor.metrics.pollingInterval=200ms)
    if [[ $engine == spark://* ]]; then
      spark+=(--spark-conf spark.executor.memory=2g
        --spark-conf "spark.executor.extraJavaOptions=-Xlog:gc:file=$dir.gc-executor-%p.log")
    fi
  fi
  uptime > "$dir.load"
  t0=$(date +%s.%N)
  rm -f "$gc"/driver-*.log
  # The driver's CPU seconds (user, system; with the local engine, every client's too).
  JDK_JAVA_OPTIONS=$gc_opts /usr/bin/time -f "%U %S" -o "$dir.cpu" timeout "$limit" \
    "$root/tributary" simulate "$@" --engine "$engine" ${spark[@]+"${spark[@]}"} --out "$dir" \
    > "$dir.stdout" 2> "$dir.stderr" || rc=$?
  t1=$(date +%s.%N)
  mkdir -p "$dir.gc-driver"
  mv "$gc"/driver-*.log "$dir.gc-driver/" 2>/dev/null || true
  echo "$t0 $t1 $rc" > "$dir.wall"
  echo "  $name ($engine): rc $rc, $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}') s, load $(sed 's/.*average: //' "$dir.load")" >&2
}

engines=(local "local[2]" "$master")
labels=(local local2 cluster)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +'%Y-%m-%d %H:%M UTC')
for ((rep = 1; rep <= reps; rep++)); do
out="$base/rep-$rep"
mkdir -p "$out"
echo "repetition $rep of $reps (results in $out)" >&2

if wants overhead; then
  echo "overhead: FedProx protocol, $rounds rounds..." >&2
  for i in 0 1 2; do
    run "fedprox-${labels[$i]}" "${engines[$i]}" 1800 --algorithm fedprox --mu 1 \
      --dataset synthetic:1,1 --model mclr --clients 30 --clients-per-round 10 --local-epochs 20 \
      --batch-size 10 --lr 0.01 --rounds "$rounds" --seed 1
  done
fi

if wants scale; then
  for k in $scale_clients; do
    echo "scale: fashion-mnist mclr, $k clients per round, $scale_rounds rounds..." >&2
    for i in 0 1 2; do
      run "scale-$k-${labels[$i]}" "${engines[$i]}" "$scale_timeout" --dataset fashion-mnist \
        --model mclr --clients 60000 --clients-per-round "$k" --local-epochs 1 --batch-size 10 \
        --rounds "$scale_rounds" --seed 1
    done
  done
fi

if wants product; then
  # The largest model x clients product: the FedAvg 2NN (mlp, 199,210 parameters) on
  # fashion-mnist, PRODUCT_CLIENTS per round.
  k=${PRODUCT_CLIENTS:-10000}
  echo "product: fashion-mnist mlp, $k clients per round, $scale_rounds rounds..." >&2
  for i in 0 1 2; do
    run "product-$k-${labels[$i]}" "${engines[$i]}" "$scale_timeout" --dataset fashion-mnist \
      --model mlp --clients 60000 --clients-per-round "$k" --local-epochs 1 --batch-size 10 \
      --rounds "$scale_rounds" --seed 1
  done
fi

# sample_live NAME INTERVAL: while run NAME goes on, the live heap (what a full collection leaves:
# `jcmd PID GC.class_histogram` collects first) of its driver and executors, every INTERVAL s,
# into NAME.live, and each executor's CPU seconds into NAME.cpu-executors (PID SECONDS, the last line
# of a PID its total but for the last INTERVAL). Runs sampled so are slower (every sample stops the
# JVM for a full collection).
sample_live() {
  local name=$1 every=$2
  while [[ ! -f $out/$name.wall ]]; do
    sleep "$every"
    # The run's JVMs: the driver names --out DIR, the executors their GC log beside it.
    "$JAVA_HOME/bin/jcmd" -l 2>/dev/null | while read -r pid rest; do
      { tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null | grep -qF "$out/$name" || continue
      role=executor
      [[ $rest == *CoarseGrainedExecutorBackend* ]] || role=driver
      # The executor's CPU seconds so far (user + system, /proc/PID/stat), the last sample of
      # each kept: what it spent on the clients, whatever else runs on the machine.
      if [[ $role == executor ]]; then
        ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null) &&
          echo "$pid $(awk -v t="$ticks" -v h="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f", t / h}')" \
            >> "$out/$name.cpu-executors"
      fi
      total=$("$JAVA_HOME/bin/jcmd" "$pid" GC.class_histogram 2>/dev/null | awk '/^Total/ {print $3}')
      [[ -n $total ]] && echo "$role $pid $total" >> "$out/$name.live"
    done
  done
}

if wants live && ((rep == 1)); then
  for k in ${LIVE_CLIENTS:-1000 60000}; do
    echo "live heap: fashion-mnist mclr, $k clients per round, cluster..." >&2
    name="live-$k-cluster"
    sample_live "$name" 3 &
    sampler=$!
    run "$name" "$master" "$scale_timeout" --dataset fashion-mnist --model mclr --clients 60000 \
      --clients-per-round "$k" --local-epochs 1 --batch-size 10 --rounds "$scale_rounds" --seed 1
    wait "$sampler" || true
  done
fi

if wants population; then
  for k in ${POPULATION_CLIENTS:-1000 10000 100000 1000000}; do
    echo "population: generated:784,10,1 mclr, $k clients per round..." >&2
    for i in 0 1 2; do
      name="population-$k-${labels[$i]}"
      sampler=
      if [[ ${labels[$i]} == cluster && $rep == 1 ]]; then
        sample_live "$name" 10 &
        sampler=$!
      fi
      run "$name" "${engines[$i]}" 1800 --dataset generated:784,10,1 --model mclr \
        --clients "$k" --clients-per-round "$k" --local-epochs 1 --batch-size 1 \
        --rounds "${POPULATION_ROUNDS:-2}" --seed 1
      [[ -z $sampler ]] || wait "$sampler" || true
    done
  done
fi

if wants million; then
  first=1
  for k in ${MILLION_CLIENTS:-100000 1000000}; do
    echo "million: generated:99999,10,1 mclr (1,000,000 parameters), $k clients per round..." >&2
    for i in 0 2; do
      [[ $i == 0 && $first == 0 ]] && continue
      [[ " ${MILLION_ENGINES:-local cluster} " == *" ${labels[$i]} "* ]] || continue
      name="million-$k-${labels[$i]}"
      sampler=
      if [[ ${labels[$i]} == cluster && $rep == 1 ]]; then
        sample_live "$name" 10 &
        sampler=$!
      fi
      run "$name" "${engines[$i]}" "${MILLION_TIMEOUT:-5400}" --dataset generated:99999,10,1 \
        --model mclr --clients "$k" --clients-per-round "$k" --local-epochs 1 --batch-size 1 \
        --rounds 1 --seed 1
      [[ -z $sampler ]] || wait "$sampler" || true
    done
    first=0
  done
fi

if wants traffic; then
  k=${TRAFFIC_CLIENTS:-10000}
  for t in ${TRAFFIC_TASKS:-2 8 32}; do
    for how in combined pertask; do
      echo "traffic: generated:99999,10,1 mclr, $k clients, $t tasks, $how..." >&2
      conf=()
      [[ $how == pertask ]] && conf=(--spark-conf "tributary.combinedParts=$t")
      run_partitions=$t run "traffic-$t-$how" "$traffic_engine" 1800 ${conf[@]+"${conf[@]}"} \
        --dataset generated:99999,10,1 --model mclr --clients "$k" --clients-per-round "$k" \
        --local-epochs 1 --batch-size 1 --rounds 1 --seed 1
    done
  done
fi

done
stop_cluster
python3 "$here/spark_report.py" "$base/rep-1"
python3 "$here/spark_reps.py" "$base" --started "$started" --load-start "$load_start" \
  --load-end "$(cut -d' ' -f1-3 /proc/loadavg)"
