#!/usr/bin/env python3
"""numpy anchor for the aggregation benchmark: Flower's FedAvg aggregate, printed as JSON.

`aggregate` follows flwr.server.strategy.aggregate.aggregate: scale every layer of every client
update by the client's example count, add the scaled layers with reduce(np.add, ...), and divide
by the total example count. Input: `--clients` updates of one float32 layer of `--elements`
values, uniform in [-1, 1), example counts 1..1000, the same sizes as the JMH benchmark.
"""
import argparse
import json
import statistics
import time
from functools import reduce

import numpy as np


def aggregate(results):
    num_examples_total = sum(num_examples for (_, num_examples) in results)
    weighted_weights = [
        [layer * num_examples for layer in weights] for weights, num_examples in results
    ]
    return [
        reduce(np.add, layer_updates) / num_examples_total
        for layer_updates in zip(*weighted_weights)
    ]


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--clients", type=int, default=100)
    p.add_argument("--elements", type=int, default=10_000_000)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args()
    rng = np.random.default_rng(42)
    results = [
        ([rng.uniform(-1, 1, a.elements).astype(np.float32)], int(rng.integers(1, 1001)))
        for _ in range(a.clients)
    ]
    for _ in range(a.warmup):
        aggregate(results)
    samples = []
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        out = aggregate(results)
        samples.append((time.perf_counter() - t0) * 1000.0)
    assert out[0].shape == (a.elements,)
    print(json.dumps({
        "clients": a.clients,
        "elements": a.elements,
        "numpy": np.__version__,
        "flower_fedavg_aggregate": {"median_ms": statistics.median(samples),
                                    "samples_ms": samples},
    }))


if __name__ == "__main__":
    main()
