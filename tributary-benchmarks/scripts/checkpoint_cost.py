#!/usr/bin/env python3
"""Measures what checkpoints cost a long `tributary simulate` run (the FedProx protocol's settings
of fedprox_race.py, with --rounds and --checkpoint-every): runs each given CLI jar in turn, several
times, alternating so that a machine loaded by others weighs on each alike, and reports for each
run the wall clock and the CPU seconds (user + system) of the JVM, the load average at its start,
the size of model.zip and the sha256 of final.npz (which must agree across jars); then the medians.

Usage: checkpoint_cost.py --jar before=OLD.jar --jar after=tributary-cli/target/tributary.jar
       [--rounds 1000] [--checkpoint-every 10] [--repeats 3] [--out DIR]
"""
import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import time


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def java():
    home = os.environ.get("JAVA_HOME")
    exe = os.path.join(home, "bin", "java") if home else shutil.which("java")
    if not exe or not os.path.exists(exe):
        raise SystemExit("no java: set JAVA_HOME to a JDK 21+")
    return exe


def run(jar, out, a):
    shutil.rmtree(out, ignore_errors=True)
    cmd = [java(), "--sun-misc-unsafe-memory-access=allow", "-jar", jar, "simulate",
           "--algorithm", "fedprox", "--mu", "1", "--dataset", "synthetic:1,1", "--model", "mclr",
           "--clients", "30", "--clients-per-round", "10", "--local-epochs", "20",
           "--batch-size", "10", "--lr", "0.01", "--rounds", str(a.rounds), "--seed", "1",
           "--checkpoint-every", str(a.checkpoint_every), "--out", out]
    load = loadavg()
    start = time.perf_counter()
    with open(out + ".log", "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed; see {out}.log")
    with open(os.path.join(out, "final.npz"), "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    return {"load": load, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "zip": os.path.getsize(os.path.join(out, "model.zip")), "sha": sha}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jar", action="append", required=True, help="NAME=PATH of a tributary.jar")
    p.add_argument("--rounds", type=int, default=1000)
    p.add_argument("--checkpoint-every", type=int, default=10)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--out", default="target/checkpoint-cost")
    a = p.parse_args()
    jars = []
    for j in a.jar:
        name, _, path = j.partition("=")
        if not path or not os.path.isfile(path):
            raise SystemExit(f"--jar {j}: expected NAME=PATH of an existing jar")
        jars.append((name, path))
    os.makedirs(a.out, exist_ok=True)
    rows = {name: [] for name, _ in jars}
    print(f"| run | jar | load at start | wall s | CPU s | model.zip bytes |")
    print(f"|---|---|---|---|---|---|")
    for i in range(a.repeats):
        for name, path in jars:
            r = run(path, os.path.join(a.out, f"{name}-{i}"), a)
            rows[name].append(r)
            print(f"| {i + 1} | {name} | {r['load']:.2f} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['zip']} |",
                  flush=True)
    shas = {r["sha"] for rs in rows.values() for r in rs}
    print()
    for name, rs in rows.items():
        print(f"{name}: median wall {statistics.median(r['wall'] for r in rs):.1f} s, "
              f"median CPU {statistics.median(r['cpu'] for r in rs):.1f} s")
    print("final.npz sha256: " + (shas.pop() if len(shas) == 1 else "DIFFER " + str(sorted(shas))))
    return 0 if len(shas) <= 1 else 1


if __name__ == "__main__":
    sys.exit(main())
