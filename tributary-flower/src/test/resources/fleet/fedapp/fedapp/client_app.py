"""ClientApp for Python SuperNodes, the same arithmetic as the Java test app: every array + k,
num-examples k, where k is the node config's "k"."""
import numpy as np
from flwr.app import Array, ArrayRecord, Context, Message, MetricRecord, RecordDict
from flwr.clientapp import ClientApp

app = ClientApp()


def _k(context: Context) -> int:
    return int(context.node_config["k"])


@app.train()
def train(msg: Message, context: Context) -> Message:
    k = _k(context)
    out = ArrayRecord({name: Array(a.numpy() + np.asarray(k, dtype=a.numpy().dtype))
                       for name, a in msg.content["arrays"].items()})
    metrics = MetricRecord({"num-examples": k, "train_loss": float(k)})
    return Message(RecordDict({"arrays": out, "metrics": metrics}), reply_to=msg)


@app.evaluate()
def evaluate(msg: Message, context: Context) -> Message:
    k = _k(context)
    metrics = MetricRecord({"num-examples": k, "eval_loss": float(k)})
    return Message(RecordDict({"metrics": metrics}), reply_to=msg)
