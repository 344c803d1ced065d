#!/usr/bin/env python3
"""numpy's local step of the FedProx protocol (softmax regression 60 -> 10, batch 10, SGD lr
0.01), the same code fedprox_numpy.py runs, timed the way McLrStepBenchmark times Tributary's:
passes of 1,000 steps over fixed random batches. Prints one JSON object with the median and every
pass, in nanoseconds per step."""
import json
import statistics
import time

import numpy as np

from fedprox_numpy import loss_and_grad


def main():
    rng = np.random.default_rng(1)
    steps, batch = 1000, 10
    xs = [rng.normal(size=(batch, 60)).astype(np.float32) for _ in range(steps)]
    ys = [rng.integers(0, 10, batch) for _ in range(steps)]
    limit = np.sqrt(6.0 / 70)
    w = rng.uniform(-limit, limit, (60, 10)).astype(np.float32)
    b = np.zeros(10, np.float32)
    passes = []
    for _ in range(15):
        start = time.perf_counter()
        for x, y in zip(xs, ys):
            _, gw, gb = loss_and_grad(w, b, x, y)
            w -= 0.01 * gw
            b -= 0.01 * gb
        passes.append((time.perf_counter() - start) / steps * 1e9)
    passes = passes[5:]  # the first passes warm caches, as JMH's warm-up iterations do
    print(json.dumps({"median_ns_per_step": statistics.median(passes), "passes_ns": passes}))


if __name__ == "__main__":
    main()
