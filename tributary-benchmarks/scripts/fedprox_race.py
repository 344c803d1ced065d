#!/usr/bin/env python3
"""Runs and reports the FedProx protocol race of run-fedprox-protocol.sh (which checks the
preconditions first): for each seed, `tributary simulate`, the numpy anchor (fedprox_numpy.py),
`tributary simulate` again, each timed by wall clock and by the CPU seconds (user + system) of the
process and the children it waited for; then a Markdown table per seed and the medians.

With --blas-threads it only prints the number of threads numpy's OpenBLAS reports (the script's
thread-count precondition) and exits.
"""
import argparse
import ctypes
import glob
import json
import os
import statistics
import subprocess
import sys
import time


def blas_threads():
    """The thread count numpy's bundled OpenBLAS reports, or an error naming why it is unknown."""
    import numpy as np
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), "..", "numpy.libs", "*openblas*"))
    libs += glob.glob(os.path.join(os.path.dirname(np.__file__), ".libs", "*openblas*"))
    for path in libs:
        lib = ctypes.CDLL(path)
        for name in ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
                     "openblas_get_num_threads64_", "openblas_get_num_threads"):
            fn = getattr(lib, name, None)
            if fn is not None:
                return int(fn())
    raise SystemExit("no OpenBLAS bundled with numpy " + np.__version__ + " answers a thread query")


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def timed(cmd, stdout, stderr, env=None):
    """Runs cmd; returns (wall seconds, CPU seconds of it and its waited-for children)."""
    start = time.perf_counter()
    with open(stdout, "w") as out, open(stderr, "w") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited with {proc.returncode}; see {stderr}")
    return wall, usage.ru_utime + usage.ru_stime


def numpy_env():
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return env


def run_seed(a, seed, here):
    mu = "1" if a.algorithm == "fedprox" else "0"
    mu_flag = ["--mu", "1"] if a.algorithm == "fedprox" else []
    threads_flag = ["--threads", str(a.threads)] if a.threads_flag else []
    row = {"seed": seed, "load_start": loadavg()}
    for name in ("tributary-1", "numpy", "tributary-2"):
        run_dir = os.path.join(a.out, f"seed{seed}-{name}")
        if name == "numpy":
            cmd = ["python3", os.path.join(here, "fedprox_numpy.py"), "--rounds", str(a.rounds),
                   "--mu", mu, "--seed", str(seed), "--sizes-from",
                   os.path.join(a.out, f"seed{seed}-tributary-1", "clients.json")]
            wall, cpu = timed(cmd, run_dir + ".json", run_dir + ".stderr", numpy_env())
            with open(run_dir + ".json") as f:
                result = json.load(f)
            examples, loop = result["examples"], result["seconds"]
        else:
            cmd = [os.path.join(a.root, "tributary"), "simulate", "--algorithm", a.algorithm,
                   *mu_flag, "--dataset", "synthetic:1,1", "--model", "mclr", "--clients", "30",
                   "--clients-per-round", "10", "--local-epochs", "20", "--batch-size", "10",
                   "--lr", "0.01", "--rounds", str(a.rounds), "--seed", str(seed), *threads_flag,
                   "--out", run_dir]
            wall, cpu = timed(cmd, run_dir + ".stdout", run_dir + ".stderr")
            with open(os.path.join(run_dir, "config.json")) as f:
                recorded = json.load(f)["threads"]
            if recorded != a.threads:
                raise SystemExit(f"precondition failed: {run_dir} ran {recorded} client threads, "
                                 f"not the {a.threads} asked for")
            with open(os.path.join(run_dir, "metrics.jsonl")) as f:
                metrics = [json.loads(line) for line in f]
            examples = sum(m["examples"] for m in metrics)
            loop = sum(m["seconds"] for m in metrics)
        row[name] = {"wall": wall, "cpu": cpu, "examples": examples, "loop": loop}
        print(f"seed {seed}, {name}: {wall:.2f} s wall, {cpu:.2f} CPU s", file=sys.stderr)
    with open(os.path.join(a.out, f"seed{seed}-tributary-1", "final.npz"), "rb") as f1, \
            open(os.path.join(a.out, f"seed{seed}-tributary-2", "final.npz"), "rb") as f2:
        row["same_bits"] = f1.read() == f2.read()
    row["load_end"] = loadavg()
    return row


def report(a, rows):
    print(f"FedProx protocol, Synthetic(1,1), {a.algorithm}, {a.rounds} rounds, 30 devices, "
          f"10 per round, E=20, B=10; tributary {a.threads} client threads on {a.cores} cores, "
          f"numpy 1 BLAS thread; results in {a.out}")
    if a.under_load:
        print(f"UNDER LOAD: {a.under_load}")
    print()
    print("| seed | load start-end | tributary wall s (1, 2) | numpy wall s | wall ratio | "
          "tributary CPU s (1, 2) | numpy CPU s | CPU ratio | examples/s ratio |")
    print("|---:|---|---|---:|---:|---|---:|---:|---:|")
    wall_r, cpu_r, rate_r = [], [], []
    for r in rows:
        t1, t2, n = r["tributary-1"], r["tributary-2"], r["numpy"]
        # The faster Tributary run of the two, as before; CPU seconds of the same run.
        best = min((t1, t2), key=lambda t: t["wall"])
        wall_r.append(n["wall"] / best["wall"])
        cpu_r.append(n["cpu"] / min(t1["cpu"], t2["cpu"]))
        t_rate = max(t["examples"] / t["loop"] for t in (t1, t2))
        rate_r.append(t_rate / (n["examples"] / n["loop"]))
        print(f"| {r['seed']} | {r['load_start']:.2f}-{r['load_end']:.2f} | {t1['wall']:.2f}, "
              f"{t2['wall']:.2f} | {n['wall']:.2f} | {wall_r[-1]:.1f}x | {t1['cpu']:.2f}, "
              f"{t2['cpu']:.2f} | {n['cpu']:.2f} | {cpu_r[-1]:.1f}x | {rate_r[-1]:.1f}x |")
    print()
    if not all(r["same_bits"] for r in rows):
        bad = [r["seed"] for r in rows if not r["same_bits"]]
        raise SystemExit(f"the two Tributary runs of seed(s) {bad} differ in final.npz: "
                         "no ratio reported")
    at_target = sum(1 for w in wall_r if w >= 10)
    print(f"median of {len(rows)}: numpy / tributary wall clock {statistics.median(wall_r):.1f}x "
          f"(range {min(wall_r):.1f}x-{max(wall_r):.1f}x, {at_target} of {len(rows)} at >= 10x); "
          f"CPU seconds {statistics.median(cpu_r):.1f}x (range {min(cpu_r):.1f}x-"
          f"{max(cpu_r):.1f}x); training examples per second {statistics.median(rate_r):.1f}x")
    print(f"medians: tributary wall {statistics.median(min(r['tributary-1']['wall'], r['tributary-2']['wall']) for r in rows):.2f} s, "
          f"numpy wall {statistics.median(r['numpy']['wall'] for r in rows):.2f} s; "
          f"tributary CPU {statistics.median(min(r['tributary-1']['cpu'], r['tributary-2']['cpu']) for r in rows):.2f} s, "
          f"numpy CPU {statistics.median(r['numpy']['cpu'] for r in rows):.2f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--blas-threads", action="store_true")
    ap.add_argument("--root")
    ap.add_argument("--out")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--algorithm", default="fedavg", choices=("fedavg", "fedprox"))
    ap.add_argument("--threads", type=int)
    ap.add_argument("--threads-flag", default="")
    ap.add_argument("--cores", type=int)
    ap.add_argument("--under-load", default="")
    a = ap.parse_args()
    if a.blas_threads:
        print(blas_threads())
        return
    here = os.path.dirname(os.path.abspath(__file__))
    rows = []
    for seed in range(1, a.reps + 1):
        rows.append(run_seed(a, seed, here))
        with open(os.path.join(a.out, "race.jsonl"), "a") as f:
            f.write(json.dumps(rows[-1]) + "\n")
    report(a, rows)


if __name__ == "__main__":
    main()
