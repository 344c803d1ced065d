#!/usr/bin/env python3
"""Prints the aggregation benchmark table: JMH (weighted mean, STREAM triad) and numpy runs.

Bandwidth of the weighted mean counts the bytes it must move at least: every update read once
and the result written once, clients * elements * 4 + elements * 4 bytes. The triad counts
STREAM's 3 arrays * 8 bytes per element.
"""
import json
import statistics
import sys


def main():
    jmh = json.load(open(sys.argv[1]))
    numpy_runs = [json.load(open(p)) for p in sys.argv[2:]]
    med = {}
    params = {}
    for r in jmh:
        name = r["benchmark"].rsplit(".", 1)[-1]
        raw = [x for fork in r["primaryMetric"]["rawData"] for x in fork]
        med[name] = statistics.median(raw)
        params = r.get("params") or {}
    clients = int(params["clients"])
    elements = int(params["elements"])
    triad_n = int(params["triadElements"])
    wm_ms = med["weightedMean"]
    triad_ms = med["streamTriad"]
    numpy_samples = [s for d in numpy_runs for s in d["flower_fedavg_aggregate"]["samples_ms"]]
    np_ms = statistics.median(numpy_samples)
    wm_bytes = clients * elements * 4 + elements * 4
    triad_bytes = 3 * 8 * triad_n
    wm_gbs = wm_bytes / wm_ms / 1e6
    triad_gbs = triad_bytes / triad_ms / 1e6
    np_gbs = wm_bytes / np_ms / 1e6
    print(f"{clients} updates x {elements} float32, threads={params.get('threads')} (0 = all)")
    print()
    print("| case | median ms | GB/s |")
    print("|---|---:|---:|")
    print(f"| AggregationBenchmark.weightedMean (ExecutionContext.invoke) | {wm_ms:.1f} | {wm_gbs:.2f} |")
    print(f"| AggregationBenchmark.streamTriad ({triad_n} doubles x 3) | {triad_ms:.1f} | {triad_gbs:.2f} |")
    print(f"| numpy Flower FedAvg aggregate | {np_ms:.1f} | {np_gbs:.2f} |")
    print()
    print("| comparison | value | target |")
    print("|---|---:|---|")
    print(f"| weighted mean bandwidth / triad bandwidth | {wm_gbs / triad_gbs * 100:.0f}% | >= 60% |")
    print(f"| numpy time / weighted mean time | {np_ms / wm_ms:.1f}x | >= 3x |")


if __name__ == "__main__":
    main()
