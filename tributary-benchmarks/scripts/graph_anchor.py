#!/usr/bin/env python3
"""numpy anchors for the local-training benchmarks, printed as JSON.

1. float32 matmul 512x512x512 (A @ B), GFLOPS = 2 n^3 / median time.
2. One training epoch of the FedAvg 2NN (784-200-200-10, ReLU, mean softmax cross-entropy, SGD
   lr 0.01) on 10,000 random 784-dim samples in batches of 32: the same forward and backward pass
   that Tributary's graph runs (TwoNnEpochBenchmark), written directly in numpy.

Run it with numpy's BLAS on one thread (OPENBLAS_NUM_THREADS=1 and friends; run-graph.sh sets
them). The output records which BLAS numpy uses, and its thread count, via threadpoolctl when it
can be imported (also from a local wheel under /opt/pypi/files).
"""
import argparse
import glob
import json
import statistics
import sys
import time

import numpy as np


def blas_info():
    try:
        import threadpoolctl  # noqa: F401
    except ImportError:
        for wheel in sorted(glob.glob("/opt/pypi/files/threadpoolctl-*.whl")):
            sys.path.insert(0, wheel)  # a pure-Python wheel imports straight from its zip
            break
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return {"threadpoolctl": "not available"}
    return [{k: d.get(k) for k in ("internal_api", "version", "architecture", "num_threads")}
            for d in threadpool_info()]


def timed(fn, warmup, repeat):
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000.0)
    return {"median_ms": statistics.median(samples), "samples_ms": samples}


def glorot(rng, fan_in, fan_out):
    limit = np.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-limit, limit, (fan_in, fan_out)).astype(np.float32)


def two_nn_epoch(params, xs, ys, lr):
    w1, b1, w2, b2, w3, b3 = params
    total = 0.0
    for x, y in zip(xs, ys):
        n = x.shape[0]
        # forward
        z1 = x @ w1 + b1
        h1 = np.maximum(z1, 0)
        z2 = h1 @ w2 + b2
        h2 = np.maximum(z2, 0)
        logits = h2 @ w3 + b3
        shifted = logits - logits.max(axis=1, keepdims=True)
        logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        total += float(-logp[np.arange(n), y].mean())
        # backward
        g = np.exp(logp)
        g[np.arange(n), y] -= 1.0
        g /= n
        gw3 = h2.T @ g
        gb3 = g.sum(axis=0)
        g = (g @ w3.T) * (z2 > 0)
        gw2 = h1.T @ g
        gb2 = g.sum(axis=0)
        g = (g @ w2.T) * (z1 > 0)
        gw1 = x.T @ g
        gb1 = g.sum(axis=0)
        # SGD, in place
        w1 -= lr * gw1
        b1 -= lr * gb1
        w2 -= lr * gw2
        b2 -= lr * gb2
        w3 -= lr * gw3
        b3 -= lr * gb3
    return total


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--repeat", type=int, default=10)
    a = p.parse_args()

    rng = np.random.default_rng(42)
    n = 512
    ma = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    mb = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    mm = timed(lambda: ma @ mb, 10, 50)
    mm["gflops"] = 2.0 * n ** 3 / (mm["median_ms"] / 1000.0) / 1e9

    samples, batch = 10_000, 32
    x = rng.random((samples, 784), dtype=np.float32)
    y = rng.integers(0, 10, samples)
    xs = [x[i:i + batch] for i in range(0, samples, batch)]
    ys = [y[i:i + batch] for i in range(0, samples, batch)]
    params = [glorot(rng, 784, 200), np.zeros(200, np.float32),
              glorot(rng, 200, 200), np.zeros(200, np.float32),
              glorot(rng, 200, 10), np.zeros(10, np.float32)]
    epoch = timed(lambda: two_nn_epoch(params, xs, ys, np.float32(0.01)), a.warmup, a.repeat)

    json.dump({"numpy": np.__version__, "blas": blas_info(), "matmul512": mm, "two_nn_epoch": epoch},
              sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
