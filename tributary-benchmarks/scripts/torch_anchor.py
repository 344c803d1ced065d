#!/usr/bin/env python3
"""PyTorch anchor for the local-training comparison (run-pytorch.sh), printed as one JSON object.

The same cases as io.tributary.bench.LocalTrainingRace, in PyTorch on the CPU with
torch.set_num_threads(THREADS): float32 matmul 512^3 (GFLOPS = 2 n^3 / time), one epoch of the
FedAvg 2NN (784-200-200-10, ReLU) and one of its CNN (two 5x5 convolutions, 32 and 64 channels,
same padding, ReLU, 2x2 max pooling, 512 dense, 10 out), batch 32, SGD lr 0.01, mean
cross-entropy, random 28x28 samples; a warm-up of at least WARM_UP_S seconds (30 products; a tenth
of the data, repeated), as LocalTrainingRace warms up, then REPS timed epochs, each as wall-clock
seconds and as the process's CPU seconds (*_cpu_s; all threads).

Usage: torch_anchor.py THREADS REPS SAMPLES CNN_SAMPLES [CASES]
"""
import json
import statistics
import sys
import time

try:
    import torch
    from torch import nn
except ImportError as e:  # run-pytorch.sh checks this first; say it plainly when run alone
    print(f"torch is not importable: {e}", file=sys.stderr)
    sys.exit(3)

BATCH = 32
MATMUL = 512
MATMUL_CALLS = 10
WARM_UP_S = 2.0


def summary(values):
    return {"median": round(statistics.median(values), 4), "samples": [round(v, 4) for v in values]}


def matmul(reps):
    g = torch.Generator().manual_seed(42)
    a = torch.rand(MATMUL, MATMUL, generator=g) * 2 - 1
    b = torch.rand(MATMUL, MATMUL, generator=g) * 2 - 1
    c = torch.empty(MATMUL, MATMUL)
    warm = time.perf_counter()
    calls = 0
    while calls < 3 * MATMUL_CALLS or time.perf_counter() - warm < WARM_UP_S:
        torch.mm(a, b, out=c)
        calls += 1
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(MATMUL_CALLS):
            torch.mm(a, b, out=c)
        s = (time.perf_counter() - t0) / MATMUL_CALLS
        out.append(2.0 * MATMUL ** 3 / s / 1e9)
    return out


def two_nn():
    return nn.Sequential(nn.Flatten(), nn.Linear(784, 200), nn.ReLU(), nn.Linear(200, 200),
                         nn.ReLU(), nn.Linear(200, 10))


def cnn():
    return nn.Sequential(
        nn.Conv2d(1, 32, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(7 * 7 * 64, 512), nn.ReLU(), nn.Linear(512, 10))


def epochs(model, shape, samples, reps):
    g = torch.Generator().manual_seed(1)
    batches = []
    for start in range(0, samples, BATCH):
        n = min(BATCH, samples - start)
        batches.append((torch.rand(n, *shape, generator=g),
                        torch.randint(0, 10, (n,), generator=g)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = nn.CrossEntropyLoss()

    def step(x, y):
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        return loss.item()

    warm = time.perf_counter()
    while True:
        for x, y in batches[:max(1, len(batches) // 10)]:
            step(x, y)
        if time.perf_counter() - warm >= WARM_UP_S:
            break
    out, cpu = [], []
    for _ in range(reps):
        c0 = time.process_time()
        t0 = time.perf_counter()
        for x, y in batches:
            step(x, y)
        out.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return out, cpu


def main(argv):
    if len(argv) < 4:
        print("usage: torch_anchor.py THREADS REPS SAMPLES CNN_SAMPLES [CASES]", file=sys.stderr)
        return 2
    threads, reps, samples, cnn_samples = (int(v) for v in argv[:4])
    cases = (argv[4] if len(argv) > 4 else "matmul,2nn,cnn").split(",")
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    result = {"side": "pytorch", "threads": torch.get_num_threads(), "torch": torch.__version__,
              "mkldnn": torch.backends.mkldnn.is_available()}
    with torch.no_grad():
        if "matmul" in cases:
            result["matmul_gflops"] = summary(matmul(reps))
    if "2nn" in cases:
        wall, cpu = epochs(two_nn(), (784,), samples, reps)
        result["2nn_epoch_s"], result["2nn_epoch_cpu_s"] = summary(wall), summary(cpu)
    if "cnn" in cases:
        wall, cpu = epochs(cnn(), (1, 28, 28), cnn_samples, reps)
        result["cnn_epoch_s"], result["cnn_epoch_cpu_s"] = summary(wall), summary(cpu)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
