"""A NumPy-style Flower client over the legacy bidirectional stream, as Python Flower's
grpc-bidi transport and NumPyClient behave: it sends no tensor-type header, loads every tensor
with np.load(allow_pickle=False), answers with np.save bytes and tensor_type "numpy.ndarray", and
answers ReconnectIns with DisconnectRes(RECONNECT).

Usage: numpy_client.py GEN_DIR PORT SHIFT EXAMPLES
Fit adds SHIFT to every parameter and reports EXAMPLES examples and loss SHIFT; evaluate reports
loss SHIFT. Prints one line per message received and the negotiated header."""
import io
import queue
import sys

sys.path.insert(0, sys.argv[1])

import grpc  # noqa: E402
import numpy as np  # noqa: E402
from flwr.proto import parameters_pb2, transport_pb2, transport_pb2_grpc  # noqa: E402

port, shift, examples = int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])


def to_npy(a):
    buf = io.BytesIO()
    np.save(buf, a, allow_pickle=False)
    return buf.getvalue()


def from_parameters(p):
    return [np.load(io.BytesIO(t), allow_pickle=False) for t in p.tensors]


def parameters(arrays):
    return parameters_pb2.Parameters(tensors=[to_npy(a) for a in arrays],
                                     tensor_type="numpy.ndarray")


outbox = queue.Queue()


def requests():
    while True:
        m = outbox.get()
        if m is None:
            return
        yield m


channel = grpc.insecure_channel(f"localhost:{port}")
stub = transport_pb2_grpc.FlowerServiceStub(channel)
responses = stub.Join(requests())
header = dict(responses.initial_metadata()).get("flwr-tensor-types")
print(f"header {header}", flush=True)
CM = transport_pb2.ClientMessage
for msg in responses:
    kind = msg.WhichOneof("msg")
    if kind == "reconnect_ins":
        print(f"reconnect_ins {msg.reconnect_ins.seconds}", flush=True)
        outbox.put(CM(disconnect_res=CM.DisconnectRes(reason=transport_pb2.RECONNECT)))
        outbox.put(None)
        break
    if kind == "fit_ins":
        arrays = from_parameters(msg.fit_ins.parameters)
        print(f"fit_ins {msg.fit_ins.parameters.tensor_type} "
              f"{[(a.dtype.str, a.shape) for a in arrays]}", flush=True)
        new = [(a + np.asarray(shift, dtype=a.dtype)).astype(a.dtype) for a in arrays]
        outbox.put(CM(fit_res=CM.FitRes(
            parameters=parameters(new), num_examples=examples,
            metrics={"loss": transport_pb2.Scalar(double=shift)})))
    elif kind == "evaluate_ins":
        from_parameters(msg.evaluate_ins.parameters)
        print("evaluate_ins", flush=True)
        outbox.put(CM(evaluate_res=CM.EvaluateRes(loss=shift, num_examples=examples)))
    elif kind == "get_parameters_ins":
        outbox.put(CM(get_parameters_res=CM.GetParametersRes(
            parameters=parameters([np.zeros(2, dtype=np.float32)]))))
    else:
        raise SystemExit(f"unexpected message {kind}")
channel.close()
print("done", flush=True)
