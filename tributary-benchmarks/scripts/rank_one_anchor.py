#!/usr/bin/env python3
"""numpy anchor for RankOneSumBenchmark: the float64 sum of one-step updates, printed as JSON.

Each of `--clients` updates of a [rows, cols] float32 layer is what one SGD step over one example
changes, `(start + alpha * outer(u, v)) - start` in float32, added with weight 1 into a float64
sum, as a server summing the updates a population of one-example clients sent would do with numpy
(the update made, then added). The same sizes and the same kinds of values as the JMH benchmark;
numpy has no fused multiply-add, so the bits differ, the work does not.
"""
import argparse
import json
import statistics
import time

import numpy as np


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rows", type=int, default=99_999)
    p.add_argument("--cols", type=int, default=10)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--repeat", type=int, default=15)
    a = p.parse_args()
    rng = np.random.default_rng(1)
    start = (rng.standard_normal(a.rows * a.cols) * 0.01).astype(np.float32).reshape(a.rows, a.cols)
    us = [rng.random(a.rows, dtype=np.float32) for _ in range(a.clients)]
    vs = [rng.standard_normal(a.cols).astype(np.float32) for _ in range(a.clients)]
    alpha = np.float32(-0.1)
    acc = np.zeros((a.rows, a.cols), dtype=np.float64)
    times = []
    for i in range(a.warmup + a.repeat):
        t0 = time.perf_counter()
        for u, v in zip(us, vs):
            step = start + alpha * np.outer(u, v)
            acc += step - start
        t = time.perf_counter() - t0
        if i >= a.warmup:
            times.append(t * 1e3)
    print(json.dumps({"rows": a.rows, "cols": a.cols, "clients": a.clients,
                      "median_ms": statistics.median(times), "min_ms": min(times),
                      "max_ms": max(times), "numpy": np.__version__}))


if __name__ == "__main__":
    main()
