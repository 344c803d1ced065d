#!/usr/bin/env python3
"""numpy anchors for the serialization benchmarks, printed as JSON.

np.save to a BytesIO and np.load from one, for a float32 array of the same size and seed
policy as the JMH benchmarks (uniform in [-1, 1)). Each case is timed `--repeat` times after
`--warmup` untimed runs; the output holds every sample in milliseconds and their median.
"""
import argparse
import io
import json
import statistics
import sys
import time

import numpy as np


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
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--megabytes", type=int, default=100)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--repeat", type=int, default=15)
    a = p.parse_args()

    n = a.megabytes * 1_000_000 // 4
    arr = np.random.default_rng(42).uniform(-1, 1, n).astype(np.float32)

    def save():
        bio = io.BytesIO()
        np.save(bio, arr, allow_pickle=False)
        return bio.getvalue()

    blob = save()

    def load():
        return np.load(io.BytesIO(blob), allow_pickle=False)

    assert np.array_equal(load(), arr)
    out = {
        "numpy": np.__version__,
        "python": sys.version.split()[0],
        "megabytes": a.megabytes,
        "np_save_bytesio": timed(save, a.warmup, a.repeat),
        "np_load_bytesio": timed(load, a.warmup, a.repeat),
    }
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
