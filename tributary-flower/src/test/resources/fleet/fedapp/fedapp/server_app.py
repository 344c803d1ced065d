"""ServerApp: Flower's own Message-API FedAvg, unchanged, on every node for 3 rounds."""
import os

import numpy as np
from flwr.app import Array, ArrayRecord, ConfigRecord, Context
from flwr.serverapp import Grid, ServerApp
from flwr.serverapp.strategy import FedAvg

app = ServerApp()


@app.main()
def main(grid: Grid, context: Context) -> None:
    rounds = int(context.run_config["num-server-rounds"])
    initial = ArrayRecord({
        "w": Array(np.arange(6, dtype=np.float32).reshape(2, 3)),
        "b": Array(np.array([0.5, -1.0, 2.0], dtype=np.float64)),
    })
    strategy = FedAvg(fraction_train=1.0, fraction_evaluate=1.0, min_train_nodes=2,
                      min_evaluate_nodes=2, min_available_nodes=2)
    result = strategy.start(grid=grid, initial_arrays=initial, num_rounds=rounds,
                            train_config=ConfigRecord({"lr": float(context.run_config["lr"])}))
    lines = ["TRAIN_ROUNDS " + ",".join(str(r) for r in sorted(result.train_metrics_clientapp)),
             "EVALUATE_ROUNDS "
             + ",".join(str(r) for r in sorted(result.evaluate_metrics_clientapp))]
    for name, arr in result.arrays.items():
        a = arr.numpy()
        lines.append(f"ARRAY {name} {a.dtype} " + ",".join(repr(float(x)) for x in a.ravel()))
    out = context.run_config["out-file"]
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(out + ".tmp", out)
