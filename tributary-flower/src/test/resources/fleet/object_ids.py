"""Prints Flower's own deflation of a fixed message: every object's id and content."""
import base64
import sys

import numpy as np
from flwr.app.metadata import Metadata
from flwr.common.message import make_message
from flwr.common.record import Array, ArrayRecord, ConfigRecord, MetricRecord, RecordDict
from flwr.supercore.inflatable.inflatable_object import get_all_nested_objects, get_object_tree

big = np.arange(1_600_000, dtype=np.float32).reshape(400, 4000)  # 6.4 MB: two chunks
zeros = np.zeros((4, 1024, 1024), dtype=np.float32)  # 16 MiB: four chunks, two identical
arrays = ArrayRecord({
    "w": Array(np.arange(6, dtype=np.float32).reshape(2, 3)),
    "b\u00e9\"x": Array(np.array([1, -2, 3], dtype=np.int64)),
    "scalar": Array(np.array(2.5, dtype=np.float64)),
    "flags": Array(np.array([True, False])),
    "u8": Array(np.array([[1, 2], [3, 255]], dtype=np.uint8)),
    "names": Array(np.array(["ab", "c\u00e9"])),
    "big": Array(big),
    "zeros": Array(zeros),
    "w-again": Array(np.arange(6, dtype=np.float32).reshape(2, 3)),
})
metrics = MetricRecord({"num-examples": 10, "loss": 0.5, "big": 2**64 - 1, "ints": [1, -2],
                        "floats": [0.25, 1.0], "zero": 0})
config = ConfigRecord({"server-round": 3, "lr": 0.01, "name": "fedavg", "on": True,
                       "raw": b"\x00\x01", "strs": ["a", "b"], "bools": [True, False],
                       "bytes": [b"x"], "huge": [2**63 + 5, 1]})
content = RecordDict({"arrays": arrays, "metrics": metrics, "config": config})
md = Metadata(run_id=7, message_id="", src_node_id=1, dst_node_id=1234567890123,
              reply_to_message_id="", group_id="2", created_at=1700000000.125, ttl=43200.0,
              message_type="train")
msg = make_message(metadata=md, content=content)
objs = get_all_nested_objects(msg)


def tree(t):
    return t.object_id + "(" + ",".join(tree(c) for c in t.children) + ")"


print("MESSAGE", msg.object_id)
print("TREE", tree(get_object_tree(msg)))
for k, v in objs.items():
    print("OBJ", k, base64.b64encode(v.deflate()).decode())
