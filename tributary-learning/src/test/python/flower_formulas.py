"""Flower's aggregation and server-optimizer formulas, in numpy, as reference values.

Written from the formulas of Flower 1.27's flwr/server/strategy/aggregate.py, fedavgm.py,
fedadam.py, fedyogi.py and fedadagrad.py, with numpy's own dtype rules (float32 in, as Flower's
clients send). Usage: flower_formulas.py IN.npz OUT.npz

IN holds c{i}_l{l} (client i's layer l), examples (int64 per client), model_l{l} (the global
model) and update{r}_l{l} (round r's aggregated update, r = 1..R). OUT holds one array per
result: {rule}_l{l} for the aggregation rules, {optimizer}_r{r}_l{l} for the server
optimizers' models after each round, and qffl_l{l} for QFedAvg's model after one round in which
client i sends model + c{i} and the loss on the global model is 0.7 (q 0.2, learning rate 0.1).
"""

import sys
from functools import reduce

import numpy as np


def aggregate(results):
    total = sum(n for _, n in results)
    weighted = [[layer * n for layer in w] for w, n in results]
    return [reduce(np.add, layers) / total for layers in zip(*weighted)]


def median(results):
    return [np.median(np.asarray(layers), axis=0) for layers in zip(*[w for w, _ in results])]


def trimmed_mean(results, beta):
    out = []
    for layers in zip(*[w for w, _ in results]):
        a = np.asarray(layers)
        n = a.shape[0]
        lo = int(beta * n)
        hi = n - lo
        part = np.partition(a, (lo, hi - 1), 0)
        out.append(np.mean(part[lo:hi], axis=0))
    return out


def distances(weights):
    flat = np.array([np.concatenate(w, axis=None).ravel() for w in weights])
    d = np.zeros((len(weights), len(weights)))
    for i, a in enumerate(flat):
        for j, b in enumerate(flat):
            d[i, j] = np.linalg.norm(a - b) ** 2
    return d


def krum(results, f, keep):
    weights = [w for w, _ in results]
    d = distances(weights)
    closest = max(1, len(weights) - f - 2)
    scores = [np.sum(d[i, np.argsort(row)[1:closest + 1]]) for i, row in enumerate(d)]
    if keep > 0:
        best = np.argsort(scores)[::-1][len(scores) - keep:]
        return aggregate([results[i] for i in best])
    return weights[int(np.argmin(scores))]


def bulyan(results, f):
    results = list(results)
    theta = len(results) - 2 * f
    beta = theta - 2 * f
    chosen = []
    for _ in range(theta):
        best = krum(results, f, 0)
        idx = next(i for i, (w, _) in enumerate(results)
                   if all(np.array_equal(a, b) for a, b in zip(w, best)))
        chosen.append(results.pop(idx))
    med = median(chosen)
    out = []
    for l, ref in enumerate(med):
        layer = np.array([w[l] for w, _ in chosen])
        idx = np.argpartition(np.abs(ref - layer), kth=beta - 1, axis=0)
        out.append(np.mean(np.take_along_axis(layer, idx, axis=0)[:beta], axis=0))
    return out


def fedavgm(model, updates, lr, momentum):
    out, m = [], None
    for r, d in enumerate(updates, start=1):
        g = [-x for x in d]
        if momentum > 0:
            m = g if r == 1 else [momentum * x + y for x, y in zip(m, g)]
            g = m
        model = [x - lr * y for x, y in zip(model, g)]
        out.append(model)
    return out


def adaptive(kind, model, updates, eta, beta_1, beta_2, tau):
    out, m, v = [], None, None
    for r, d in enumerate(updates, start=1):
        if not m:
            m = [np.zeros_like(x) for x in d]
        m = [np.multiply(beta_1, x) + (1 - beta_1) * y for x, y in zip(m, d)]
        if not v:
            v = [np.zeros_like(x) for x in d]
        if kind == "adam":
            v = [beta_2 * x + (1 - beta_2) * np.multiply(y, y) for x, y in zip(v, d)]
            step = eta * np.sqrt(1 - np.power(beta_2, r + 1.0)) / (1 - np.power(beta_1, r + 1.0))
        elif kind == "yogi":
            v = [x - (1.0 - beta_2) * np.multiply(y, y) * np.sign(x - np.multiply(y, y))
                 for x, y in zip(v, d)]
            step = eta
        else:
            v = [x + np.multiply(y, y) for x, y in zip(v, d)]
            step = eta
        model = [x + step * y / (np.sqrt(z) + tau) for x, y, z in zip(model, m, v)]
        out.append(model)
    return out


def qffl(model, client_models, loss, q, lr):
    """QFedAvg.aggregate_fit with weights_before = model and the evaluated loss `loss`."""
    def norm_grad(grad_list):
        flat = grad_list[0]
        for g in grad_list[1:]:
            flat = np.append(flat, g)
        return float(np.sum(np.square(flat)))

    deltas, hs = [], []
    for new in client_models:
        grads = [np.multiply((u - v), 1.0 / lr) for u, v in zip(model, new)]
        deltas.append([np.float_power(loss + 1e-10, q) * g for g in grads])
        hs.append(q * np.float_power(loss + 1e-10, q - 1) * norm_grad(grads)
                  + (1.0 / lr) * np.float_power(loss + 1e-10, q))
    denominator = np.sum(np.asarray(hs))
    updates = [sum(d[i] * 1.0 / denominator for d in deltas) for i in range(len(model))]
    return [(u - v) * 1.0 for u, v in zip(model, updates)]


def main():
    data = np.load(sys.argv[1])
    clients = sorted({k.split("_")[0] for k in data.files if k.startswith("c")},
                     key=lambda c: int(c[1:]))
    layers = sorted({k for k in data.files if k.startswith("model_")},
                    key=lambda k: int(k[len("model_l"):]))
    results = [([data[f"{c}_l{l}"] for l in range(len(layers))], int(n))
               for c, n in zip(clients, data["examples"])]
    rounds = sorted({k.split("_")[0] for k in data.files if k.startswith("update")})
    model = [data[k] for k in layers]
    updates = [[data[f"{r}_l{l}"] for l in range(len(layers))] for r in rounds]
    out = {}
    rules = {
        "mean": aggregate(results),
        "median": median(results),
        "trimmed": trimmed_mean(results, 0.2),
        "krum": krum(results, 2, 0),
        "multikrum": krum(results, 2, 5),
        "bulyan": bulyan(results, 2),
    }
    for name, layers_out in rules.items():
        for l, a in enumerate(layers_out):
            out[f"{name}_l{l}"] = a
    optimizers = {
        "fedavgm": fedavgm(model, updates, 0.7, 0.9),
        "fedadam": adaptive("adam", model, updates, 0.1, 0.9, 0.99, 1e-9),
        "fedyogi": adaptive("yogi", model, updates, 0.01, 0.9, 0.99, 1e-3),
        "fedadagrad": adaptive("adagrad", model, updates, 0.1, 0.0, 0.0, 1e-9),
    }
    for name, per_round in optimizers.items():
        for r, layers_out in enumerate(per_round, start=1):
            for l, a in enumerate(layers_out):
                out[f"{name}_r{r}_l{l}"] = np.asarray(a, dtype=np.float64)
    client_models = [[m + w for m, w in zip(model, weights)] for weights, _ in results]
    for l, a in enumerate(qffl(model, client_models, 0.7, 0.2, 0.1)):
        out[f"qffl_l{l}"] = np.asarray(a, dtype=np.float64)
    np.savez(sys.argv[2], **out)


if __name__ == "__main__":
    main()
