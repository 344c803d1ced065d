#!/usr/bin/env python3
"""Writes a CSV of federated data for run-csv-stream.sh: a header `client,f0..f{F-1},label`, then
CLIENTS clients' rows, each client's rows together, about MEGABYTES in all. Features are N(0, 1)
with 4 decimals; the label is the argmax of a fixed linear teacher over 10 classes, so a linear
model can learn it. Rows repeat a pool of 50,000 distinct rows (formatting every row would take
longer than reading it), each client starting at its own place in the pool."""
import argparse

import numpy as np


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--megabytes", type=int, default=2048)
    p.add_argument("--clients", type=int, default=1000)
    p.add_argument("--features", type=int, default=32)
    a = p.parse_args()
    rng = np.random.default_rng(1)
    pool = 50_000
    x = np.round(rng.normal(size=(pool, a.features)), 4)
    w = rng.normal(size=(a.features, 10))
    y = np.argmax(x @ w, axis=1)
    rows = [",".join(f"{v:.4f}" for v in x[i]) + f",{y[i]}\n" for i in range(pool)]
    mean = sum(len(r) for r in rows) / pool + len(",c0000")
    per_client = max(1, int(a.megabytes * (1 << 20) / mean / a.clients))
    with open(a.out, "w", buffering=1 << 22) as f:
        f.write("client," + ",".join(f"f{j}" for j in range(a.features)) + ",label\n")
        for k in range(a.clients):
            prefix = f"c{k:04d},"
            start = (k * 7919) % pool
            f.write("".join(prefix + rows[(start + i) % pool] for i in range(per_client)))
    print(f"{a.out}: {a.clients} clients x {per_client} rows of {a.features} features")


if __name__ == "__main__":
    main()
