"""The benchmark's numpy ClientApp, for Python SuperNodes: every array + 1 in its own dtype, the
arithmetic that io.tributary.bench.FlowerSuperNodes does in Java; reports when its handler ran."""
import time

import numpy as np
from flwr.app import Array, ArrayRecord, Context, Message, MetricRecord, RecordDict
from flwr.clientapp import ClientApp

app = ClientApp()


@app.train()
def train(msg: Message, context: Context) -> Message:
    start = time.time()
    out = ArrayRecord({name: Array(a.numpy() + np.asarray(1, dtype=a.numpy().dtype))
                       for name, a in msg.content["arrays"].items()})
    metrics = MetricRecord({"num-examples": 1, "handler-start": start,
                            "handler-end": time.time(), "impl-java": 0})
    return Message(RecordDict({"arrays": out, "metrics": metrics}), reply_to=msg)
