"""The benchmark's ServerApp: sends a float32 model of model-mb MB (10^6 bytes) as a train
message and times each round from before push_messages until the ServerApp holds every reply
(pulled every 0.05 s), checking that each reply is the model + 1. Writes JSON to out-file."""
import json
import os
import time

import numpy as np
from flwr.app import Array, ArrayRecord, ConfigRecord, Context, Message, RecordDict
from flwr.serverapp import Grid, ServerApp

app = ServerApp()


def _round(grid: Grid, nodes, model: np.ndarray, expected: np.ndarray) -> dict:
    content = RecordDict({"arrays": ArrayRecord({"w": Array(model)}),
                          "config": ConfigRecord({"lr": 0.1})})
    msgs = [Message(content=content, dst_node_id=n, message_type="train") for n in nodes]
    start = time.time()
    ids = set(grid.push_messages(msgs))
    pushed = time.time()
    replies = []
    while ids:
        got = list(grid.pull_messages(ids))
        ids.difference_update(m.metadata.reply_to_message_id for m in got)
        replies.extend(got)
        if ids:
            time.sleep(0.05)
    end = time.time()
    out = []
    for r in replies:
        if r.has_error():
            raise RuntimeError(f"node {r.metadata.src_node_id}: {r.error}")
        m = r.content["metrics"]
        w = r.content["arrays"]["w"].numpy()
        out.append({"node": r.metadata.src_node_id, "java": bool(m["impl-java"]),
                    "exact": bool(np.array_equal(w, expected)),
                    "to_handler_s": m["handler-start"] - pushed,
                    "handler_s": m["handler-end"] - m["handler-start"],
                    "from_handler_s": end - m["handler-end"]})
    return {"nodes": len(nodes), "round_s": end - start, "push_s": pushed - start,
            "replies": out}


@app.main()
def main(grid: Grid, context: Context) -> None:
    cfg = context.run_config
    want = int(cfg["nodes"])
    reps = int(cfg["reps"])
    n = int(float(cfg["model-mb"]) * 1_000_000) // 4
    model = (np.arange(n) % 1000).astype(np.float32)
    expected = model + np.float32(1)
    while len(nodes := sorted(grid.get_node_ids())) < want:
        time.sleep(0.5)
    rounds = []
    if cfg["mode"] == "each":
        for _ in range(reps):
            for node in nodes:
                rounds.append(_round(grid, [node], model, expected))
    for _ in range(reps):
        rounds.append(_round(grid, nodes, model, expected))
    out = cfg["out-file"]
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        json.dump({"model_bytes": model.nbytes, "nodes": nodes, "rounds": rounds}, f)
    os.replace(out + ".tmp", out)
