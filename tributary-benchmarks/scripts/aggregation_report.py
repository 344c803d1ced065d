#!/usr/bin/env python3
"""Prints the aggregation benchmark table: JMH (weighted mean, STREAM triad) and numpy runs.

Usage: aggregation_report.py JMH.json NUMPY.json... [--triad-after JMH.json]

Bytes, the same rule on both sides (STREAM's): every element a kernel names is counted once per
read and once per write. The weighted mean reads every update once and writes the result once:
clients * elements * 4 + elements * 4 bytes. The triad reads b and c and writes a: 3 * 8 bytes
per element. Neither counts the write-allocate read of the lines written (Java's stores are not
non-temporal): that is 1/4 of the triad's traffic and 1% of the weighted mean's, so the ratio by
real traffic, printed too, is about 3/4 of the table's. The triad's figure is the median of its shots
before and after the weighted mean (--triad-after), whose medians are printed to show a drift.
"""
import argparse
import json
import statistics


def shots(jmh, name):
    """The single-shot times (ms) of benchmark `name` in a JMH JSON result, and its params."""
    for r in jmh:
        if r["benchmark"].rsplit(".", 1)[-1] == name:
            return [x for fork in r["primaryMetric"]["rawData"] for x in fork], r.get("params") or {}
    raise SystemExit(f"aggregation_report.py: no {name} in the JMH results")


def bytes_moved(clients, elements, triad_n):
    """(weighted mean, triad) bytes by STREAM's rule, then by traffic with write-allocate."""
    counted = (clients * elements * 4 + elements * 4, 3 * 8 * triad_n)
    traffic = (clients * elements * 4 + 2 * elements * 4, 4 * 8 * triad_n)
    return counted, traffic


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("jmh")
    p.add_argument("numpy", nargs="+")
    p.add_argument("--triad-after")
    a = p.parse_args()
    jmh = json.load(open(a.jmh))
    wm, params = shots(jmh, "weightedMean")
    triad_before, _ = shots(jmh, "streamTriad")
    triad_after = shots(json.load(open(a.triad_after)), "streamTriad")[0] if a.triad_after else []
    clients = int(params["clients"])
    elements = int(params["elements"])
    triad_n = int(params["triadElements"])
    wm_ms = statistics.median(wm)
    triad_ms = statistics.median(triad_before + triad_after)
    numpy_runs = [json.load(open(path)) for path in a.numpy]
    numpy_samples = [s for d in numpy_runs for s in d["flower_fedavg_aggregate"]["samples_ms"]]
    np_ms = statistics.median(numpy_samples)
    (wm_bytes, triad_bytes), (wm_traffic, triad_traffic) = bytes_moved(clients, elements, triad_n)
    wm_gbs = wm_bytes / wm_ms / 1e6
    triad_gbs = triad_bytes / triad_ms / 1e6
    np_gbs = wm_bytes / np_ms / 1e6
    print(f"{clients} updates x {elements} float32, threads={params.get('threads')} (0 = all)")
    print()
    print("| case | median ms (n) | GB/s |")
    print("|---|---:|---:|")
    print(f"| AggregationBenchmark.weightedMean (ExecutionContext.invoke) | {wm_ms:.1f} ({len(wm)}) "
          f"| {wm_gbs:.2f} |")
    print(f"| AggregationBenchmark.streamTriad ({triad_n} doubles x 3) | {triad_ms:.1f} "
          f"({len(triad_before) + len(triad_after)}) | {triad_gbs:.2f} |")
    print(f"| numpy Flower FedAvg aggregate | {np_ms:.1f} ({len(numpy_samples)}) | {np_gbs:.2f} |")
    print()
    if triad_after:
        print(f"triad median before the weighted mean {statistics.median(triad_before):.1f} ms, "
              f"after {statistics.median(triad_after):.1f} ms")
    print(f"by traffic (write-allocate counted): weighted mean {wm_traffic / wm_ms / 1e6:.2f} GB/s, "
          f"triad {triad_traffic / triad_ms / 1e6:.2f} GB/s, ratio "
          f"{wm_traffic / wm_ms / (triad_traffic / triad_ms) * 100:.0f}%")
    print()
    print("| comparison | value | target |")
    print("|---|---:|---|")
    print(f"| weighted mean bandwidth / triad bandwidth | {wm_gbs / triad_gbs * 100:.0f}% | >= 60% |")
    print(f"| numpy time / weighted mean time | {np_ms / wm_ms:.1f}x | >= 3x |")


if __name__ == "__main__":
    main()
