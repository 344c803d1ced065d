"""ServerApp: Flower's own Message-API FedAvg (or, by the run config's "strategy", FedAdam or
QFedAvg), unchanged, on every node for 3 rounds."""
import os

import numpy as np
from flwr.app import Array, ArrayRecord, ConfigRecord, Context
from flwr.serverapp import Grid, ServerApp
from flwr.serverapp.strategy import FedAdam, FedAvg, QFedAvg

app = ServerApp()


@app.main()
def main(grid: Grid, context: Context) -> None:
    rounds = int(context.run_config["num-server-rounds"])
    big = int(context.run_config.get("model-mb", 0)) * 1024 * 1024 // 4
    shapes = str(context.run_config.get("init-shapes", ""))
    if shapes:  # float32 zeros of these shapes ("64x10,10"), for a CLI node's model
        initial = ArrayRecord({
            f"p{i}": Array(np.zeros([int(d) for d in s.split("x")], dtype=np.float32))
            for i, s in enumerate(shapes.split(","))})
    elif big:  # one float32 array of model-mb MiB: i % 1000, exact after any +k and averaging
        initial = ArrayRecord({"big": Array((np.arange(big) % 1000).astype(np.float32))})
    else:
        initial = ArrayRecord({
            "w": Array(np.arange(6, dtype=np.float32).reshape(2, 3)),
            "b": Array(np.array([0.5, -1.0, 2.0], dtype=np.float64)),
        })
    every_node = dict(fraction_train=1.0, fraction_evaluate=1.0, min_train_nodes=2,
                      min_evaluate_nodes=2, min_available_nodes=2)
    name = str(context.run_config.get("strategy", "fedavg"))
    if name == "fedadam":  # hands back float64 arrays from round 2
        strategy = FedAdam(**every_node)
    elif name == "qfedavg":  # reads each reply's train_loss
        strategy = QFedAvg(client_learning_rate=0.1, **every_node)
    else:
        strategy = FedAvg(**every_node)
    result = strategy.start(grid=grid, initial_arrays=initial, num_rounds=rounds,
                            train_config=ConfigRecord({"lr": float(context.run_config["lr"])}))
    lines = ["TRAIN_ROUNDS " + ",".join(str(r) for r in sorted(result.train_metrics_clientapp)),
             "EVALUATE_ROUNDS "
             + ",".join(str(r) for r in sorted(result.evaluate_metrics_clientapp))]
    for name, arr in result.arrays.items():
        a = arr.numpy()
        if big:
            expected = (np.arange(big) % 1000).astype(np.float32) + np.float32(2.5 * rounds)
            lines.append(f"BIG {a.dtype} {a.size} {bool(np.array_equal(a, expected))}")
        else:
            lines.append(f"ARRAY {name} {a.dtype} "
                         + ",".join(repr(float(x)) for x in a.ravel()))
    out = context.run_config["out-file"]
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(out + ".tmp", out)
