#!/usr/bin/env python3
"""Prints the Markdown table of a hierfavg-results.sh output directory from the runs'
metrics.jsonl: the test accuracy of the global model after cloud rounds 1, 2, 5, 10, 20 and the
last, mean and standard deviation over the seeds, one row per configuration, and the first cloud
round each configuration's seed-mean accuracy reaches 0.80. Standard library only."""
import json
import pathlib
import re
import statistics
import sys

ORDER = [("fedavg-e2", "FedAvg, 2 local epochs"),
         ("hierfavg-k2-1", "HierFAVG k1 = 2, k2 = 1"),
         ("hierfavg-k2-2", "HierFAVG k1 = 2, k2 = 2"),
         ("hierfavg-k2-5", "HierFAVG k1 = 2, k2 = 5"),
         ("fedavg-e10", "FedAvg, 10 local epochs")]
TARGET = 0.80


def main(folder):
    runs = {}
    for metrics in sorted(folder.glob("*-seed*/metrics.jsonl")):
        m = re.fullmatch(r"(.+)-seed(\d+)", metrics.parent.name)
        rows = [json.loads(line) for line in metrics.open() if line.strip()]
        runs.setdefault(m.group(1), []).append([r["test_accuracy"] for r in rows])
    if not runs:
        sys.exit(f"no runs in {folder}")
    last = min(len(a) for seeds in runs.values() for a in seeds)
    marks = [r for r in (1, 2, 5, 10, 20) if r < last] + [last]
    print("| configuration | seeds | " + " | ".join(f"round {r}" for r in marks)
          + f" | first round at {TARGET:.2f} |")
    print("|---|---:|" + "---:|" * len(marks) + "---:|")
    for key, label in ORDER:
        if key not in runs:
            continue
        seeds = runs[key]
        cells = []
        for r in marks:
            values = [a[r - 1] for a in seeds]
            sd = statistics.stdev(values) if len(values) > 1 else 0.0
            cells.append(f"{statistics.mean(values):.3f} ± {sd:.3f}")
        means = [statistics.mean(a[r] for a in seeds) for r in range(last)]
        first = next((str(r + 1) for r, v in enumerate(means) if v >= TARGET), f"> {last}")
        print(f"| {label} | {len(seeds)} | " + " | ".join(cells) + f" | {first} |")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "runs/hierfavg"))
