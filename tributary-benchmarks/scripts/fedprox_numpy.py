#!/usr/bin/env python3
"""Plain numpy FedAvg / FedProx on FedProx's Synthetic(alpha, beta): the anchor that
`run-simulation.sh` times `tributary simulate` against.

It follows the same protocol as `tributary simulate --dataset synthetic:A,B --model mclr`:
Synthetic data as in facts.md section 5 (30 devices, 60 features, 10 classes, samples per
device int(lognormal(4, 2)) + 50, 90/10 train/test split), softmax regression 60 -> 10
(Glorot-uniform weights, zero biases), each round K of N clients sampled uniformly without
replacement, each runs E epochs of minibatch SGD (batch B, learning rate LR, its data shuffled
once per round) on cross-entropy plus (mu/2)||w - w_global||^2, and the server takes the
example-weighted mean of the client models. After each round the global model's training loss
over every device's training data is computed, as in the FedProx paper's plots.

The data are drawn with numpy's generator, not Tributary's, so the two runs train on different
draws of the same distribution; the point here is the time one protocol takes. With
--sizes-from DIR/clients.json the devices get exactly the training sizes of that Tributary run,
so both sides train on the same number of examples per device.

Prints one JSON object: {"seconds": ..., "rounds": ..., "final_train_loss": ..., ...}.
"""
import argparse
import json
import time

import numpy as np


def synthetic(alpha, beta, devices, dim, classes, rng, iid=False, train_sizes=None):
    if train_sizes is not None:
        # Training sizes from a Tributary run's clients.json; the 10% test part is added back.
        sizes = np.array([t + max(1, round(t / 9)) for t in train_sizes])
    else:
        sizes = (rng.lognormal(4, 2, devices).astype(int) + 50)
    cov = np.array([(j + 1) ** -1.2 for j in range(dim)])
    u = rng.normal(0, alpha, devices)
    big_b = rng.normal(0, beta, devices)
    shared_w = rng.normal(0, 1, (dim, classes))
    shared_b = rng.normal(0, 1, classes)
    train, test = [], []
    for k in range(devices):
        v = np.zeros(dim) if iid else rng.normal(big_b[k], 1, dim)
        w = shared_w if iid else rng.normal(u[k], 1, (dim, classes))
        b = shared_b if iid else rng.normal(u[k], 1, classes)
        x = (rng.normal(size=(sizes[k], dim)) * np.sqrt(cov) + v).astype(np.float32)
        logits = x @ w + b
        y = np.argmax(logits, axis=1)
        cut = train_sizes[k] if train_sizes is not None else int(0.9 * sizes[k])
        train.append((x[:cut], y[:cut]))
        test.append((x[cut:], y[cut:]))
    return train, test


def loss_and_grad(w, b, x, y):
    logits = x @ w + b
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    n = x.shape[0]
    loss = -np.log(p[np.arange(n), y] + 1e-30).mean()
    p[np.arange(n), y] -= 1
    p /= n
    return loss, x.T @ p, p.sum(axis=0)


def client_update(w0, b0, x, y, epochs, batch, lr, mu, rng):
    w, b = w0.copy(), b0.copy()
    order = rng.permutation(x.shape[0])
    x, y = x[order], y[order]
    for _ in range(epochs):
        for s in range(0, x.shape[0], batch):
            _, gw, gb = loss_and_grad(w, b, x[s:s + batch], y[s:s + batch])
            if mu > 0:
                gw += mu * (w - w0)
                gb += mu * (b - b0)
            w -= lr * gw
            b -= lr * gb
    return w, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--alpha", type=float, default=1.0)
    ap.add_argument("--beta", type=float, default=1.0)
    ap.add_argument("--clients", type=int, default=30)
    ap.add_argument("--clients-per-round", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--local-epochs", type=int, default=20)
    ap.add_argument("--batch-size", type=int, default=10)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--mu", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sizes-from", metavar="CLIENTS_JSON",
                    help="use the per-client training sizes of a tributary run (its clients.json)")
    a = ap.parse_args()
    train_sizes = None
    if a.sizes_from:
        with open(a.sizes_from) as f:
            train_sizes = json.load(f)["train_sizes"]
        a.clients = len(train_sizes)

    rng = np.random.default_rng(a.seed)
    dim, classes = 60, 10
    train, _ = synthetic(a.alpha, a.beta, a.clients, dim, classes, rng, train_sizes=train_sizes)
    limit = np.sqrt(6.0 / (dim + classes))
    w = rng.uniform(-limit, limit, (dim, classes)).astype(np.float32)
    b = np.zeros(classes, np.float32)
    all_x = np.concatenate([t[0] for t in train])
    all_y = np.concatenate([t[1] for t in train])
    losses = []
    examples = 0
    start = time.perf_counter()
    for _ in range(a.rounds):
        chosen = np.sort(rng.choice(a.clients, a.clients_per_round, replace=False))
        ws, bs, ns = [], [], []
        for k in chosen:
            x, y = train[k]
            wk, bk = client_update(w, b, x, y, a.local_epochs, a.batch_size, a.lr, a.mu, rng)
            ws.append(wk)
            bs.append(bk)
            ns.append(x.shape[0])
            examples += x.shape[0]
        ns = np.array(ns, dtype=np.float64)
        w = (np.tensordot(ns, np.stack(ws), axes=1) / ns.sum()).astype(np.float32)
        b = (np.tensordot(ns, np.stack(bs), axes=1) / ns.sum()).astype(np.float32)
        losses.append(float(loss_and_grad(w, b, all_x, all_y)[0]))
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "rounds": a.rounds, "mu": a.mu, "seed": a.seed,
                      "final_train_loss": losses[-1], "min_train_loss": min(losses),
                      "train_examples": int(all_x.shape[0]), "examples": int(examples)}))


if __name__ == "__main__":
    main()
