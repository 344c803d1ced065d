#!/usr/bin/env python3
"""Prints run-spark.sh's tables (markdown) from its results directory.

Usage: spark_report.py RESULTS_DIR
"""
import glob
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys

out = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
ENGINES = [("local", "local"), ("local2", "local[2]"), ("cluster", "2-worker cluster")]


def wall(name):
    t0, t1, rc = open(f"{out}/{name}.wall").read().split()
    return float(t1) - float(t0), int(rc)


def load(name):
    return open(f"{out}/{name}.load").read().split("average:")[1].strip()


def cpu(name):
    """The driver's CPU seconds (user + system, /usr/bin/time; with the local engine, the clients'
    too), or None when not recorded. Spark's task CPU time counts only the task's own thread, not
    the runtime's client threads, so the executors' CPU is not taken from the event log."""
    path = f"{out}/{name}.cpu"
    if not os.path.exists(path):
        return None
    nums = re.findall(r"^([0-9.]+) ([0-9.]+)$", open(path).read(), re.M)
    return sum(map(float, nums[-1])) if nums else None


def metrics(name):
    path = f"{out}/{name}/metrics.jsonl"
    if not os.path.exists(path):
        return []
    return [json.loads(line) for line in open(path) if line.strip()]


def digest(name):
    path = f"{out}/{name}/final.npz"
    if not os.path.exists(path):
        return None
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def eventlog(name):
    d = f"{out}/{name}.events"
    if not os.path.isdir(d):
        return None
    r = subprocess.run([sys.executable, f"{here}/spark_eventlog.py", d], capture_output=True,
                       text=True)
    return json.loads(r.stdout) if r.returncode == 0 and r.stdout.strip() else None


GC = re.compile(r"(\d+)([KMG])->(\d+)([KMG])\((\d+)([KMG])\)")
UNIT = {"K": 1 / 1024, "M": 1, "G": 1024}


def gc_peak(files):
    """The largest heap in use before a collection, the largest left after one (what was
    live then, plus the garbage a young collection does not reach) and the largest heap
    committed, MiB."""
    used = after = committed = 0
    for f in files:
        for line in open(f, errors="replace"):
            m = GC.search(line)
            if m:
                used = max(used, int(m.group(1)) * UNIT[m.group(2)])
                after = max(after, int(m.group(3)) * UNIT[m.group(4)])
                committed = max(committed, int(m.group(5)) * UNIT[m.group(6)])
    return used, after, committed


def mib(b):
    return f"{b / 2**20:.0f}"


def runs(prefix):
    return [(label, title, f"{prefix}-{label}") for label, title in ENGINES
            if os.path.exists(f"{out}/{prefix}-{label}.wall")]


print(f"Results: {out}")
fed = runs("fedprox")
if fed:
    print()
    print("### Per-round overhead: FedProx protocol")
    print()
    print("| engine | rounds | median s/round | total s (sum of `seconds`) | wall s (process) "
          "| final.npz sha256 | load at start (1, 5, 15 min) |")
    print("|---|---:|---:|---:|---:|---|---|")
    first = None
    for label, title, name in fed:
        m = metrics(name)
        w, rc = wall(name)
        d = digest(name)
        first = first or d
        secs = [r["seconds"] for r in m]
        med = f"{statistics.median(secs):.3f}" if secs else "-"
        print(f"| {title} | {len(m)} | {med} | {sum(secs):.1f} | {w:.1f}"
              f"{'' if rc == 0 else f' (rc {rc})'} | {d[:12] if d else '-'}"
              f"{' (same)' if d and d == first and label != 'local' else ''} | {load(name)} |")
    digests = {digest(n) for _, _, n in fed}
    print()
    print("final.npz identical across the engines:",
          "yes" if len(digests) == 1 and None not in digests else "NO")

GROUPS = ["scale", "product", "population", "million"]
scale = sorted({p.rsplit("-", 1)[0] for p in
                (os.path.basename(f)[:-5] for g in GROUPS for f in glob.glob(f"{out}/{g}-*.wall"))},
               key=lambda s: (GROUPS.index(s.split("-")[0]), int(s.split("-")[1])))


def driver_merge_s(name):
    """The seconds the driver spent decoding and merging the engine's parts (the runtime's
    debug line), summed over the run."""
    path = f"{out}/{name}.stderr"
    if not os.path.exists(path):
        return None
    ms = [float(m.group(1)) for m in
          re.finditer(r"merged on the driver in ([0-9.]+) ms", open(path, errors="replace").read())]
    return sum(ms) / 1e3 if ms else None


if scale:
    print()
    print("### Rounds per second as clients per round grow: fashion-mnist mclr (scale), mlp "
          "(product), generated:784,10,1 mclr (population), generated:99999,10,1 mclr with "
          "1,000,000 parameters (million)")
    print()
    print("| run | engine | rounds done | round 1 s | median s/round | rounds/s "
          "| wall s | driver CPU s | final.npz sha256 | load at start |")
    print("|---:|---|---:|---:|---:|---:|---:|---|---|---|")
    for k in scale:
        base = digest(f"{k}-local")
        for label, title, name in runs(k):
            d = digest(name)
            same = " (same)" if d and d == base and label != "local" else ""
            m = metrics(name)
            w, rc = wall(name)
            secs = [r["seconds"] for r in m]
            med = statistics.median(secs) if secs else None
            note = "" if rc == 0 else (" (stopped at the limit)" if rc in (124, 137)
                                       else f" (rc {rc})")
            print(f"| {k} | {title} | {len(m)}{note} | {secs[0]:.2f} |" if secs else
                  f"| {k} | {title} | 0{note} | - |", end="")
            print(f" {med:.2f} | {1 / med:.2f} |" if med else " - | - |", end="")
            dc = cpu(name)
            cpus = '-' if dc is None else f'{dc:.1f}'
            print(f" {w:.1f} | {cpus} | {d[:12] if d else '-'}{same} | {load(name)} |")

split = [(n, t) for n, t in
         [(n, t) for _, t, n in fed] + [(n, t) for k in scale for _, t, n in runs(k)]
         if os.path.isdir(f"{out}/{n}.events")]
if split:
    print()
    print("### Where the time goes (Spark runs; event log task metrics, seconds summed over "
          "the run)")
    print()
    print("| run | engine | round loop s | Spark jobs s (submit -> end) | outside jobs s "
          "(driver) | of which decode + merge s | tasks | task run s | task deserialize s "
          "| scheduler s | result serialize + fetch s | parts to the driver MB |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, title in split:
        e = eventlog(name)
        if not e:
            continue
        loop = sum(r["seconds"] for r in metrics(name))
        merge = driver_merge_s(name)
        print(f"| {name.rsplit('-', 1)[0]} | {title} | {loop:.1f} | {e['job_ms'] / 1e3:.1f} | "
              f"{loop - e['job_ms'] / 1e3:.1f} | {'-' if merge is None else f'{merge:.2f}'} | "
              f"{e['tasks']} | {e['task_run_ms'] / 1e3:.1f} | "
              f"{e['task_deserialize_ms'] / 1e3:.1f} | {e['task_scheduler_ms'] / 1e3:.1f} | "
              f"{(e['task_result_serialize_ms'] + e['task_result_fetch_ms']) / 1e3:.1f} | "
              f"{e['result_bytes'] / 1e6:.1f} |")

if split:
    print()
    print("Jobs of each Spark run in order, ms (per round: `next`, evaluation on the training "
          "data, evaluation on the test data):")
    print()
    for name, title in split:
        e = eventlog(name)
        if e and not name.startswith("fedprox"):
            print(f"- {name.rsplit('-', 1)[0]}, {title}: {', '.join(map(str, e['each_job_ms']))}")

mem = [(n, t) for k in scale for _, t, n in runs(k)]
if mem:
    print()
    print("### Peak heap (GC logs, MiB: largest in use before a collection / largest left after "
          "one / largest committed; Spark's JVMHeapMemory peak, MiB)")
    print()
    print("| run | engine | driver (GC log) | executors (GC logs) | Spark JVMHeapMemory peak |")
    print("|---|---|---:|---|---|")
    for name, title in mem:
        du, da, dc = gc_peak(glob.glob(f"{out}/{name}.gc-driver/*.log"))
        execs = [gc_peak([f]) for f in sorted(glob.glob(f"{out}/{name}.gc-executor-*.log"))]
        e = eventlog(name)
        spark = ", ".join(f"{k} {mib(v)}" for k, v in sorted(e["peak_heap_bytes"].items())) \
            if e else "-"
        ex = ", ".join(f"{u:.0f} / {a:.0f} / {c:.0f}" for u, a, c in execs) or "(in the driver)"
        print(f"| {name.rsplit('-', 1)[0]} | {title} | {du:.0f} / {da:.0f} / {dc:.0f} | {ex} | {spark} |")

live = sorted(glob.glob(f"{out}/*.live"),
              key=lambda f: (os.path.basename(f).split("-")[0], int(os.path.basename(f).split("-")[1])))
if live:
    print()
    print("### Live heap (jcmd GC.class_histogram every 3 s (live) or 10 s (population, "
          "million) during cluster runs, MiB: largest and smallest sample)")
    print()
    print("| run | driver | executors | samples | load at start |")
    print("|---|---|---|---:|---|")
    for f in live:
        name = os.path.basename(f)[:-5]
        by = {}
        for line in open(f):
            role, pid, total = line.split()
            by.setdefault((role, pid), []).append(int(total) / 2**20)
        drv = "; ".join(f"{max(v):.0f} (min {min(v):.0f})" for (r, _), v in by.items()
                        if r == "driver") or "-"
        exe = "; ".join(f"{max(v):.0f} (min {min(v):.0f})" for (r, _), v in sorted(by.items())
                        if r == "executor") or "-"
        n = sum(len(v) for v in by.values())
        print(f"| {name.rsplit('-', 1)[0]} | {drv} | {exe} | {n} | {load(name)} |")

TRAFFIC = re.compile(r"pass (\d+) \(([^)]*)\): (\d+) tasks, (\d+) parts to the driver, (\d+) bytes")
traffic = sorted({os.path.basename(f)[:-5] for f in glob.glob(f"{out}/traffic-*.wall")},
                 key=lambda n: (int(n.split("-")[1]), n))
if traffic:
    print()
    print("### What the driver receives per pass as the tasks grow (the engine's debug line: "
          "the parts' payload bytes; the event log: the tasks' result bytes)")
    print()
    print("| tasks | combined parts = | parts per pass | `next` pass MB | all passes MB (round) "
          "| event log results MB | round s | final.npz sha256 | load at start |")
    print("|---:|---|---:|---:|---:|---:|---:|---|---|")
    base = None
    for name in traffic:
        _, tasks, how = name.split("-")
        path = f"{out}/{name}.stderr"
        lines = TRAFFIC.findall(open(path, errors="replace").read()) if os.path.exists(path) else []
        nxt = [int(b) for _, desc, _, _, b in lines if desc.startswith("next")]
        every = [int(b) for *_, b in lines]
        parts = sorted({int(p) for _, _, _, p, _ in lines})
        e = eventlog(name)
        m = metrics(name)
        d = digest(name)
        base = base or d
        print(f"| {tasks} | {'executors (default)' if how == 'combined' else 'tasks'}"
              f" | {', '.join(map(str, parts)) or '-'} | {sum(nxt) / 1e6:.1f} | "
              f"{sum(every) / 1e6:.1f} | {e['result_bytes'] / 1e6 if e else 0:.1f} | "
              f"{m[0]['seconds'] if m else '-'} | {d[:12] if d else '-'}"
              f"{' (same)' if d and d == base else ''} | {load(name)} |")
