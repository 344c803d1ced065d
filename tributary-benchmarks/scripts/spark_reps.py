#!/usr/bin/env python3
"""docs/benchmarks.md's Spark rows from run-spark.sh's repetitions: medians over REPS (range).

Usage: spark_reps.py RESULTS_DIR [--started T] [--load-start L] [--load-end L]
RESULTS_DIR holds rep-1, rep-2, ... (each as spark_report.py reads it). Each cell is the median
over the repetitions of that run's figure (a run's s/round: the median of its rounds' `seconds`),
with the range in brackets; bytes are exact and must agree across repetitions (checked).
Every run of a configuration, whatever its engine and repetition, must write the same final.npz.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
ENGINES = ["local", "local2", "cluster"]
TRAFFIC = re.compile(r"pass (\d+) \(([^)]*)\): (\d+) tasks, (\d+) parts to the driver, (\d+) bytes")


def metrics(d, name):
    path = f"{d}/{name}/metrics.jsonl"
    return [json.loads(l) for l in open(path) if l.strip()] if os.path.exists(path) else []


def s_per_round(d, name):
    secs = [r["seconds"] for r in metrics(d, name)]
    return statistics.median(secs) if secs else None


def load1(d, name):
    path = f"{d}/{name}.load"
    return float(open(path).read().split("average:")[1].split(",")[0]) if os.path.exists(path) else None


def digest(d, name):
    path = f"{d}/{name}/final.npz"
    return hashlib.sha256(open(path, "rb").read()).hexdigest() if os.path.exists(path) else None


def eventlog(d, name):
    if not os.path.isdir(f"{d}/{name}.events"):
        return None
    r = subprocess.run([sys.executable, f"{here}/spark_eventlog.py", f"{d}/{name}.events"],
                       capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 and r.stdout.strip() else None


def cpu(d, name):
    path = f"{d}/{name}.cpu"
    nums = re.findall(r"^([0-9.]+) ([0-9.]+)$", open(path).read(), re.M) if os.path.exists(path) else []
    return sum(map(float, nums[-1])) if nums else None


def cell(xs, fmt):
    xs = [x for x in xs if x is not None]
    if not xs:
        return ""
    m = format(statistics.median(xs), fmt)
    return m if len(xs) == 1 else f"{m} ({format(min(xs), fmt)}-{format(max(xs), fmt)})"


def loads(reps, names):
    xs = [load1(d, n) for d in reps for n in names]
    xs = [x for x in xs if x is not None]
    if not xs:
        return ""
    return f"{xs[0]:.2f}" if min(xs) == max(xs) else f"{min(xs):.2f}-{max(xs):.2f}"


def same_bits(reps, names):
    ds = {digest(d, n) for d in reps for n in names if os.path.exists(f"{d}/{n}.wall")}
    return "same final.npz" if len(ds) == 1 and None not in ds else "final.npz DIFFERS"


def prefixes(reps, group):
    found = {os.path.basename(f)[:-5].rsplit("-", 1)[0] for d in reps
             for f in glob.glob(f"{d}/{group}-*.wall")}
    return sorted(found, key=lambda p: [int(x) if x.isdigit() else x for x in p.split("-")])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("results")
    p.add_argument("--started", default="")
    p.add_argument("--load-start", default="")
    p.add_argument("--load-end", default="")
    a = p.parse_args()
    reps = sorted(glob.glob(f"{a.results}/rep-*"), key=lambda d: int(d.rsplit("-", 1)[1]))
    print(f"\nSpark: median of {len(reps)} repetitions (range), {a.started}; load average "
          f"{a.load_start} at the start, {a.load_end} at the end; 'load' columns: the 1-minute "
          "load at the start of each run")
    rows = []
    for group, title in (("fedprox", "FedProx protocol"), ("scale", "mclr, {k} clients per round"),
                         ("product", "mlp, {k}")):
        for pre in prefixes(reps, group):
            names = [f"{pre}-{e}" for e in ENGINES]
            k = pre.split("-")[1] if "-" in pre else ""
            rows.append(f"| {title.format(k=f'{int(k):,}' if k else '')} | "
                        + " | ".join(cell([s_per_round(d, n) for d in reps], ".3f" if group == "fedprox" else ".2f")
                                     for n in names)
                        + f" | {loads(reps, names)} | {same_bits(reps, names)} |")
    if rows:
        print("\n| configuration | local s/round | local[2] | cluster | load at start | bits |")
        print("|---|---:|---:|---:|---:|---|")
        print("\n".join(rows))
    pops = prefixes(reps, "population")
    if pops:
        print("\n| clients per round | local s/round | local[2] | cluster | cluster: driver merge s, "
              "all rounds | load at start | bits |")
        print("|---:|---:|---:|---:|---:|---:|---|")
        for pre in pops:
            names = [f"{pre}-{e}" for e in ENGINES]
            merge = []
            for d in reps:
                path = f"{d}/{pre}-cluster.stderr"
                if os.path.exists(path):
                    ms = re.findall(r"merged on the driver in ([0-9.]+) ms", open(path, errors="replace").read())
                    merge.append(sum(map(float, ms)) / 1e3 if ms else None)
            print(f"| {int(pre.split('-')[1]):,} | "
                  + " | ".join(cell([s_per_round(d, n) for d in reps], ".2f") for n in names)
                  + f" | {cell(merge, '.2f')} | {loads(reps, names)} | {same_bits(reps, names)} |")
        print("(live heaps: the first repetition's cluster runs, spark_report.py RESULTS/rep-1)")
    mil = prefixes(reps, "million")
    if mil:
        print("\n| clients | engine | s/round | `next` s | driver CPU s | load at start |")
        print("|---:|---|---:|---:|---:|---:|")
        for pre in mil:
            for e in ENGINES:
                n = f"{pre}-{e}"
                if not any(os.path.exists(f"{d}/{n}.wall") for d in reps):
                    continue
                nxt = []
                for d in reps:
                    ev = eventlog(d, n)
                    nxt.append(ev["each_job_ms"][0] / 1e3 if ev and ev.get("each_job_ms") else None)
                print(f"| {int(pre.split('-')[1]):,} | {e} | **{cell([s_per_round(d, n) for d in reps], ',.1f')}** | "
                      f"{cell(nxt, '.1f')} | {cell([cpu(d, n) for d in reps], '.1f')} | {loads(reps, [n])} |")
    traffic = sorted({os.path.basename(f)[:-5] for d in reps for f in glob.glob(f"{d}/traffic-*.wall")},
                     key=lambda n: (int(n.split("-")[1]), n))
    if traffic:
        print("\n| tasks | combined parts | parts per pass | `next` MB | round MB | event log MB "
              "| round s | load (1 min) |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|")
        for n in traffic:
            _, tasks, how = n.split("-")
            exact = set()
            for d in reps:
                path = f"{d}/{n}.stderr"
                lines = TRAFFIC.findall(open(path, errors="replace").read()) if os.path.exists(path) else []
                nxt = sum(int(b) for _, desc, _, _, b in lines if desc.startswith("next"))
                every = sum(int(l[4]) for l in lines)
                parts = ", ".join(map(str, sorted({int(l[3]) for l in lines}))) or "-"
                ev = eventlog(d, n)
                exact.add((parts, nxt, every, round(ev["result_bytes"] / 1e6, 1) if ev else None))
            parts, nxt, every, evmb = sorted(exact, key=str)[0]
            flag = "" if len(exact) == 1 else " (bytes DIFFER between repetitions)"
            print(f"| {tasks} | {'executors (default)' if how == 'combined' else '= tasks'} | {parts} | "
                  f"{nxt / 1e6:.1f} | {every / 1e6:.1f} | {evmb} | "
                  f"{cell([s_per_round(d, n) for d in reps], '.1f')} | {loads(reps, [n])}{flag} |")
        print(f"traffic: {same_bits(reps, traffic)} across every run")


if __name__ == "__main__":
    main()
