#!/usr/bin/env python3
"""Prints the Markdown results table of a fedprox-paper.sh output directory: final and minimum
training loss (the global model on every device's training data) per algorithm and seed, the
round of the minimum, final test accuracy, and the mean over seeds."""
import json
import pathlib
import re
import sys


def main():
    out = pathlib.Path(sys.argv[1])
    runs = {}
    for metrics in sorted(out.glob("*-seed*/metrics.jsonl")):
        m = re.fullmatch(r"(\w+)-seed(\d+)", metrics.parent.name)
        rows = [json.loads(line) for line in metrics.open()]
        losses = [r["train_loss"] for r in rows]
        best = min(range(len(losses)), key=losses.__getitem__)
        runs[(m.group(1), int(m.group(2)))] = {
            "rounds": len(rows), "final": losses[-1], "min": losses[best],
            "min_round": rows[best]["round"], "acc": rows[-1]["test_accuracy"],
            "seconds": sum(r["seconds"] for r in rows)}
    print("| algorithm | seed | rounds | final training loss | min training loss (round) | "
          "final test accuracy | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for alg in ("fedavg", "fedprox"):
        mine = sorted((s, r) for (a, s), r in runs.items() if a == alg)
        for seed, r in mine:
            print(f"| {alg} | {seed} | {r['rounds']} | {r['final']:.4f} | {r['min']:.4f} "
                  f"({r['min_round']}) | {r['acc']:.4f} | {r['seconds']:.0f} |")
        if mine:
            n = len(mine)
            print(f"| {alg} | mean | | {sum(r['final'] for _, r in mine) / n:.4f} | "
                  f"{sum(r['min'] for _, r in mine) / n:.4f} | "
                  f"{sum(r['acc'] for _, r in mine) / n:.4f} | |")


if __name__ == "__main__":
    main()
