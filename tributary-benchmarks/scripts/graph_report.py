#!/usr/bin/env python3
"""Prints the local-training benchmark table (Markdown) from JMH JSON and two numpy anchor runs."""
import json
import sys


def main():
    jmh = json.load(open(sys.argv[1]))
    anchors = [json.load(open(p)) for p in sys.argv[2:]]
    res = {}
    for r in jmh:
        name = r["benchmark"].rsplit(".", 2)[-2]
        kernel = r.get("params", {}).get("kernel")
        res[(name, kernel)] = r["primaryMetric"]["score"]
    n = 512
    flops = 2.0 * n ** 3
    np_gflops = [a["matmul512"]["gflops"] for a in anchors]
    np_epoch = [a["two_nn_epoch"]["median_ms"] for a in anchors]
    print("numpy", anchors[0]["numpy"], "BLAS:", json.dumps(anchors[0]["blas"]))
    print()
    print("| case | Tributary (JMH) | numpy run 1 | numpy run 2 | ratio (vs mean numpy) |")
    print("|---|---|---|---|---|")
    np_mean = sum(np_gflops) / len(np_gflops)
    for kernel in ("openblas", "vector", "portable"):
        ms = res.get(("MatMulBenchmark", kernel))
        if ms is None:
            continue
        g = flops / (ms / 1000.0) / 1e9
        print(f"| matmul 512^3 float32, {kernel} | {g:.1f} GFLOPS ({ms:.2f} ms) | "
              f"{np_gflops[0]:.1f} GFLOPS | {np_gflops[1]:.1f} GFLOPS | {100 * g / np_mean:.0f}% |")
    ep = res.get(("TwoNnEpochBenchmark", None))
    if ep is not None:
        mean = sum(np_epoch) / len(np_epoch)
        print(f"| 2NN epoch, 10,000 x 784, batch 32 | {ep:.0f} ms | {np_epoch[0]:.0f} ms | "
              f"{np_epoch[1]:.0f} ms | {ep / mean:.2f}x numpy's time |")


if __name__ == "__main__":
    main()
