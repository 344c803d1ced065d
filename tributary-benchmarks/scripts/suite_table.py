#!/usr/bin/env python3
"""Prints the Markdown tables of a suite-results.sh output directory from the runs'
metrics.jsonl: for `synthetic` and `dirichlet`, every algorithm's final training loss (the global
model on every client's training data) and final test accuracy, mean and standard deviation over
the seeds; for `byzantine`, each aggregator's final test accuracy clean and under each attack.
A run that stopped early (a model that is no longer finite stops a run) counts with its last
complete round and is marked with the rounds it ran.
Standard library only."""
import json
import math
import pathlib
import re
import statistics
import sys

ORDER = ["fedavg", "fedavgm", "fedprox", "fedadam", "fedyogi", "fedadagrad", "fedmedian",
         "fedtrimmedavg", "krum", "multikrum", "bulyan"]
ATTACKS = ["clean", "scale-10", "signflip", "noise1"]
ATTACK_NAMES = {"clean": "clean", "scale-10": "2:scale:-10", "signflip": "2:signflip",
                "noise1": "2:noise:1"}


def runs(folder):
    """{(name, seed): (rounds run, last row)} of every run directory in folder."""
    found = {}
    for metrics in sorted(folder.glob("*-seed*/metrics.jsonl")):
        m = re.fullmatch(r"(.+)-seed(\d+)", metrics.parent.name)
        rows = [json.loads(line) for line in metrics.open() if line.strip()]
        if rows:
            found[(m.group(1), int(m.group(2)))] = (len(rows), rows[-1])
    return found


def stat(values):
    """mean ± standard deviation (of the seeds), or the one value; nan shown as such."""
    if any(math.isnan(v) or math.isinf(v) for v in values):
        return "diverged (" + ", ".join(f"{v:.3g}" for v in values) + ")"
    if len(values) == 1:
        return f"{values[0]:.4f}"
    return f"{statistics.mean(values):.4f} ± {statistics.stdev(values):.4f}"


def suite(folder):
    found = runs(folder)
    if not found:
        return
    print(f"### {folder.name}\n")
    print("| algorithm | seeds | final training loss | final test accuracy | rounds |")
    print("|---|---:|---:|---:|---:|")
    for alg in ORDER:
        mine = sorted((s, r) for (a, s), r in found.items() if a == alg)
        if not mine:
            continue
        losses = [r[1]["train_loss"] for _, r in mine]
        accs = [r[1]["test_accuracy"] for _, r in mine]
        rounds = sorted({r[0] for _, r in mine})
        print(f"| {alg} | {len(mine)} | {stat(losses)} | {stat(accs)} | "
              f"{', '.join(map(str, rounds))} |")
    print()


def byzantine(folder):
    found = runs(folder)
    if not found:
        return
    print(f"### {folder.name}\n")
    print("final test accuracy, mean ± standard deviation over seeds\n")
    print("| aggregator | " + " | ".join(ATTACK_NAMES[a] for a in ATTACKS) + " |")
    print("|---|" + "---:|" * len(ATTACKS))
    planned = max(r[0] for r in found.values())
    for alg in ORDER:
        cells = []
        for attack in ATTACKS:
            mine = sorted((s, r) for (a, s), r in found.items() if a == f"{alg}-{attack}")
            cell = stat([r[1]["test_accuracy"] for _, r in mine]) if mine else ""
            stopped = [r[0] for _, r in mine if r[0] < planned]
            if stopped:
                cell += (f" (stopped after round {', '.join(map(str, stopped))} of {planned}: "
                         "model not finite)")
            cells.append(cell)
        if any(cells):
            print(f"| {alg} | " + " | ".join(cells) + " |")
    print()


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "runs/suite")
    for name in ("synthetic", "dirichlet"):
        suite(out / name)
    byzantine(out / "byzantine")


if __name__ == "__main__":
    main()
