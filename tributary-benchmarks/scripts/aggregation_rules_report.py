#!/usr/bin/env python3
"""Prints the aggregation rules table: JMH's AggregationRulesBenchmark beside numpy's Flower.

Usage: aggregation_rules_report.py JMH.json NUMPY.json... [--load TEXT]...
Each Java figure is the median of JMH's single-shot samples; each numpy figure the median of
the samples of every numpy run (before and after JMH). The ratio is Java time / numpy time
(below 1: Java is faster).
"""
import argparse
import json
import statistics

# (JMH benchmark, numpy function, what the row is)
ROWS = [
    ("weightedMean", "aggregate", "weighted mean (FedAvg)"),
    ("mean", "aggregate_unweighted", "unweighted mean"),
    ("median", "aggregate_median", "coordinate-wise median (FedMedian)"),
    ("trimmedMean", "aggregate_trimmed_avg", "trimmed mean, beta 0.2 (FedTrimmedAvg)"),
    ("krum", "aggregate_krum", "Krum, f 10"),
    ("multiKrum", "aggregate_krum_to_keep", "Multi-Krum, f 10, m 50"),
    ("bulyan", "aggregate_bulyan", "Bulyan (Krum), f 10"),
    ("federatedWeightedMean", "aggregate", "WeightedMean aggregator, ExecutionContext.invoke"),
    ("federatedMedian", "aggregate_median", "CoordinateMedian aggregator, ExecutionContext.invoke"),
]


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("jmh")
    p.add_argument("numpy", nargs="+")
    p.add_argument("--load", action="append", default=[])
    a = p.parse_args()
    jmh = json.load(open(a.jmh))
    runs = [json.load(open(path)) for path in a.numpy]
    java = {}
    java_n = {}
    params = {}
    for r in jmh:
        name = r["benchmark"].rsplit(".", 1)[-1]
        raw = [x for fork in r["primaryMetric"]["rawData"] for x in fork]
        java[name] = statistics.median(raw)
        java_n[name] = len(raw)
        params = r.get("params") or params
    print(f"{params.get('clients')} updates x {params.get('elements')} float32 (one layer); "
          f"numpy {runs[0].get('numpy')}")
    print()
    print("| rule | Java benchmark | Java median ms (n) | numpy Flower function | "
          "numpy median ms (n) | Java / numpy |")
    print("|---|---|---:|---|---:|---:|")
    for bench, fn, what in ROWS:
        samples = [s for d in runs if fn in d for s in d[fn]["samples_ms"]]
        j = java.get(bench)
        np_ms = statistics.median(samples) if samples else None
        j_txt = f"{j:.1f} ({java_n[bench]})" if j is not None else "-"
        n_txt = f"{np_ms:.1f} ({len(samples)})" if np_ms is not None else "-"
        ratio = f"{j / np_ms:.2f}" if j is not None and np_ms else "-"
        print(f"| {what} | {bench} | {j_txt} | {fn} | {n_txt} | {ratio} |")
    if a.load:
        print()
        print("Load average (1, 5, 15 min) at the start of each part: "
              + "; ".join(x.strip() for x in a.load))


if __name__ == "__main__":
    main()
