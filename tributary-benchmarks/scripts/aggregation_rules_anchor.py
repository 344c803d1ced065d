#!/usr/bin/env python3
"""numpy anchor for AggregationRulesBenchmark: Flower's aggregation functions, printed as JSON.

Each function is written here in numpy from the formulas of Flower's
flwr/server/strategy/aggregate.py (Flower 1.27), with the same steps and the same numpy calls,
so that its time is the time Flower's strategy spends on a round's arithmetic:

- aggregate: every layer times the client's example count, reduce(np.add, ...), / total;
  `mean` is the same function with every example count 1 (Flower has no separate unweighted mean).
- aggregate_median: np.median(np.asarray(layer), axis=0) per layer.
- aggregate_trimmed_avg: np.partition at (cut, n - cut - 1) along the clients, then np.mean.
- aggregate_krum: the full n x n matrix of squared distances (np.linalg.norm(w_i - w_j) ** 2 for
  every ordered pair, as Flower's _compute_distances), np.argsort per row, the sum of the
  n - f - 2 nearest; to_keep = 0 returns the best update, to_keep = m averages the best m with
  aggregate (Multi-Krum).
- aggregate_bulyan: Bulyan (El Mhamdi et al. 2018) with Krum selecting, as Flower computes it:
  theta = n - 2f Krum picks, each from the updates left (the score of an update: the sum of its
  len(left) - f - 2 smallest squared distances to the others left), then the coordinate-wise
  median of the picks and the mean of the beta = theta - 2f values nearest to it
  (np.argpartition, np.take_along_axis). The distance between two updates does not change as
  others are picked, so it is computed once per pair, with Flower's formula
  (np.linalg.norm(w_i - w_j) ** 2), and each pick reads the rows and columns of those left, as
  Tributary's Bulyan does. Flower's aggregate_bulyan instead calls aggregate_krum theta times,
  each recomputing the n x n matrix for both orders of every pair: 80 x up to 10,000 norms at
  100 x 1M, about 270 s a sample against a few seconds here. The picks, their order and the
  result are the same bits (the distances are the same numbers: w_j - w_i is -(w_i - w_j)
  exactly); --only aggregate_bulyan_flower times Flower's way (not run by default), and
  test_aggregation_rules_anchor.py checks the two agree bit for bit.

Input: --clients updates of one float32 layer of --elements values, uniform in [-1, 1), example
counts 1..1000 (seed 42): the same sizes as the JMH benchmark. Each function runs --warmup
times, then --repeat timed times; aggregate_bulyan_flower, when asked for, runs --bulyan-repeat
timed times and no warm-up.
"""
import argparse
import json
import statistics
import time
from functools import reduce

import numpy as np


def aggregate(results):
    total = sum(n for _, n in results)
    scaled = [[layer * n for layer in w] for w, n in results]
    return [reduce(np.add, layers) / total for layers in zip(*scaled)]


def aggregate_median(results):
    return [np.median(np.asarray(layers), axis=0) for layers in zip(*[w for w, _ in results])]


def aggregate_trimmed_avg(results, proportiontocut):
    out = []
    for layers in zip(*[w for w, _ in results]):
        a = np.asarray(layers)
        n = a.shape[0]
        low = int(proportiontocut * n)
        high = n - low
        part = np.partition(a, (low, high - 1), 0)
        out.append(np.mean(part[low:high], axis=0))
    return out


def squared_distances(weights):
    flat = np.array([np.concatenate(w, axis=None).ravel() for w in weights])
    d = np.zeros((len(weights), len(weights)))
    for i, a in enumerate(flat):
        for j, b in enumerate(flat):
            d[i, j] = np.linalg.norm(a - b) ** 2
    return d


def pairwise_squared_distances(weights):
    """The matrix squared_distances returns, computing each pair once (the same numbers)."""
    flat = np.array([np.concatenate(w, axis=None).ravel() for w in weights])
    n = len(weights)
    d = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            d[i, j] = d[j, i] = np.linalg.norm(flat[i] - flat[j]) ** 2
    return d


def krum_scores(d, num_malicious):
    """Flower's Krum score of each row of the distance matrix d."""
    closest = max(1, len(d) - num_malicious - 2)
    return [np.sum(d[i, np.argsort(row)[1:closest + 1].tolist()]) for i, row in enumerate(d)]


def aggregate_krum(results, num_malicious, to_keep):
    weights = [w for w, _ in results]
    scores = krum_scores(squared_distances(weights), num_malicious)
    if to_keep > 0:
        best = np.argsort(scores)[::-1][len(scores) - to_keep:]
        return aggregate([results[i] for i in best])
    return weights[int(np.argmin(scores))]


def trimmed_around_median(picked, beta):
    """Bulyan's last step: per coordinate, the mean of the beta picked values nearest the median."""
    med = aggregate_median(picked)
    out = []
    for layer_id, ref in enumerate(med):
        layer = np.array([w[layer_id] for w, _ in picked])
        idx = np.argpartition(np.abs(ref - layer), kth=beta - 1, axis=0)
        out.append(np.mean(np.take_along_axis(layer, idx, axis=0)[:beta], axis=0))
    return out


def aggregate_bulyan(results, num_malicious):
    results = list(results)
    theta = len(results) - 2 * num_malicious
    beta = theta - 2 * num_malicious
    d = pairwise_squared_distances([w for w, _ in results])
    left = list(range(len(results)))
    picked = []
    for _ in range(theta):
        scores = krum_scores(d[np.ix_(left, left)], num_malicious)
        picked.append(results[left.pop(int(np.argmin(scores)))])
    return trimmed_around_median(picked, beta)


def aggregate_bulyan_flower(results, num_malicious):
    """Flower's aggregate_bulyan step for step: aggregate_krum (all n x n distances) per pick."""
    results = list(results)
    theta = len(results) - 2 * num_malicious
    beta = theta - 2 * num_malicious
    picked = []
    for _ in range(theta):
        best = aggregate_krum(results, num_malicious, 0)
        idx = next(i for i, (w, _) in enumerate(results)
                   if len(w) == len(best)
                   and all(np.array_equal(x, y) for x, y in zip(w, best)))
        picked.append(results.pop(idx))
    return trimmed_around_median(picked, beta)


def timed(fn, warmup, repeat):
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000.0)
    return {"median_ms": statistics.median(samples), "samples_ms": samples}


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--clients", type=int, default=100)
    p.add_argument("--elements", type=int, default=1_000_000)
    p.add_argument("--f", type=int, default=10)
    p.add_argument("--m", type=int, default=50)
    p.add_argument("--beta", type=float, default=0.2)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--bulyan-repeat", type=int, default=1)
    p.add_argument("--only", default="", help="comma-separated function names (default: all)")
    a = p.parse_args()
    rng = np.random.default_rng(42)
    results = [
        ([rng.uniform(-1, 1, a.elements).astype(np.float32)], int(rng.integers(1, 1001)))
        for _ in range(a.clients)
    ]
    ones = [(w, 1) for w, _ in results]
    cases = {
        "aggregate": (lambda: aggregate(results), a.warmup, a.repeat),
        "aggregate_unweighted": (lambda: aggregate(ones), a.warmup, a.repeat),
        "aggregate_median": (lambda: aggregate_median(results), a.warmup, a.repeat),
        "aggregate_trimmed_avg": (lambda: aggregate_trimmed_avg(results, a.beta), a.warmup,
                                  a.repeat),
        "aggregate_krum": (lambda: aggregate_krum(results, a.f, 0), a.warmup, a.repeat),
        "aggregate_krum_to_keep": (lambda: aggregate_krum(results, a.f, a.m), a.warmup, a.repeat),
        "aggregate_bulyan": (lambda: aggregate_bulyan(results, a.f), a.warmup, a.repeat),
        "aggregate_bulyan_flower": (lambda: aggregate_bulyan_flower(results, a.f), 0,
                                    a.bulyan_repeat),
    }
    only = [s for s in a.only.split(",") if s]
    unknown = sorted(set(only) - set(cases))
    if unknown:
        p.error(f"--only: unknown function(s) {', '.join(unknown)}; known: {', '.join(cases)}")
    out = {"clients": a.clients, "elements": a.elements, "numpy": np.__version__}
    for name, (fn, warmup, repeat) in cases.items():
        if (not only and name != "aggregate_bulyan_flower") or name in only:
            out[name] = timed(fn, warmup, repeat)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
