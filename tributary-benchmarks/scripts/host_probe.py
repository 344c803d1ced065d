"""A fixed single-thread workload, timed, to show how fast this host runs now.

The load average sees only this machine's processes. On a shared host, neighbours can slow a
core or its memory by several times while the load average stays below 1, and a benchmark's
absolute figures (and ratios against a native anchor, whose code is not JIT-compiled) then move
with them. run-all.sh prints this probe before each benchmark so a table can name the host's
state beside the load; compare it with the same probe on the same machine at a quiet time.

Prints one line of three figures and the processor's name (a VM may start on another kind of
host from one day to the next, and every ratio against a native anchor moves with it), each the best of three timings on one thread: interpreter
seconds (a pure-Python loop and small numpy operations: the kind of work the numpy anchors and
PyTorch's per-op overhead are made of, and the first to slow down when the host is shared),
compute seconds (float32 512^3 matrix products and exponentials) and memory seconds (copies of a
256 MiB array, with GB/s). With --max-interpreter S, exits 3 when the interpreter figure is above
S.
"""
import argparse
import os
import sys
import time

# One BLAS thread, whatever the caller's settings: the probe is one core's speed.
for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[name] = "1"

import numpy as np  # noqa: E402  (after the thread settings, which numpy reads on import)


def cpu_model():
    """The processor's name as the kernel reports it: the same VM image runs on different hosts."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "an unnamed processor"


def best_of(runs, work):
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - t0)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-interpreter", type=float, default=None,
                        help="exit 3 when the interpreter seconds are above this")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    a = rng.standard_normal((512, 512), dtype=np.float32)
    b = rng.standard_normal((512, 512), dtype=np.float32)
    v = rng.standard_normal(1 << 22, dtype=np.float32)

    small = np.ones(10, dtype=np.float32)

    def interpreter():
        total = 0
        for i in range(1_000_000):
            total += i
        for _ in range(20_000):
            small * 2.0 + 1.0
        return total

    def compute():
        for _ in range(32):
            a @ b
        for _ in range(16):
            np.exp(v)

    big = np.ones(1 << 26, dtype=np.float32)  # 256 MiB, far beyond any cache
    out = np.empty_like(big)

    def memory():
        for _ in range(2):
            np.copyto(out, big)

    interpreter()  # page in and warm up
    compute()
    memory()
    i = best_of(3, interpreter)
    c = best_of(3, compute)
    m = best_of(3, memory)
    gbps = 2 * 2 * big.nbytes / m / 1e9  # two copies, each a read and a write
    print(f"host probe: interpreter {i:.3f} s, compute {c:.3f} s, memory {m:.3f} s "
          f"({gbps:.1f} GB/s), one thread of {cpu_model()}")
    if args.max_interpreter is not None and i > args.max_interpreter:
        print(f"host probe: interpreter {i:.3f} s is above --max-interpreter "
              f"{args.max_interpreter}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
