"""A minimal Flower server, written like Flower's legacy gRPC server, for the Java client.

It speaks FlowerService.Join from our transport.proto (generated with grpc_tools), sends NPY
tensors as numpy.ndarray without looking at any metadata, as Python Flower does, and checks
with numpy what the Java client answers. Usage: flower_server.py GEN_DIR PORT_FILE
"""
import io
import os
import sys
import threading
from concurrent import futures

sys.path.insert(0, sys.argv[1])

import grpc  # noqa: E402
import numpy as np  # noqa: E402
from flwr.proto import transport_pb2 as pb  # noqa: E402
from flwr.proto import transport_pb2_grpc as pb_grpc  # noqa: E402
from flwr.proto import parameters_pb2  # noqa: E402

results = []
done = threading.Event()


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


def ndarrays_to_parameters(arrays):
    blobs = []
    for a in arrays:
        buf = io.BytesIO()
        np.save(buf, a, allow_pickle=False)
        blobs.append(buf.getvalue())
    return parameters_pb2.Parameters(tensors=blobs, tensor_type="numpy.ndarray")


def parameters_to_ndarrays(p):
    return [np.load(io.BytesIO(b), allow_pickle=False) for b in p.tensors]


class Servicer(pb_grpc.FlowerServiceServicer):
    def Join(self, request_iterator, context):
        try:
            yield from self.converse(request_iterator)
        finally:
            done.set()

    def converse(self, replies):
        config = {
            "sint64": pb.Scalar(sint64=-7),
            "uint64": pb.Scalar(uint64=2**64 - 2),
            "double": pb.Scalar(double=0.25),
            "bool": pb.Scalar(bool=True),
            "string": pb.Scalar(string="h\u00e9llo"),
            "bytes": pb.Scalar(bytes=b"\x00\xff"),
        }
        yield pb.ServerMessage(get_properties_ins=pb.ServerMessage.GetPropertiesIns(config=config))
        res = next(replies)
        check("get_properties answered", res.WhichOneof("msg") == "get_properties_res")
        props = res.get_properties_res.properties
        check("properties echo every scalar", dict(props) == config, str(props))
        check("uint64 stays uint64", props["uint64"].WhichOneof("scalar") == "uint64")

        yield pb.ServerMessage(get_parameters_ins=pb.ServerMessage.GetParametersIns())
        res = next(replies).get_parameters_res
        check("get_parameters OK", res.status.code == pb.OK, str(res.status))
        check("tensor_type numpy.ndarray", res.parameters.tensor_type == "numpy.ndarray",
              res.parameters.tensor_type)
        initial = parameters_to_ndarrays(res.parameters)
        check("initial float32", initial[0].dtype == np.float32 and initial[0].shape == (2, 3),
              repr(initial[0]))
        check("initial values", np.array_equal(initial[0], np.arange(6, dtype=np.float32)
                                               .reshape(2, 3)), repr(initial[0]))

        sent = [np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3),
                np.array([1.5, -2.25, 1e300], dtype=np.float64)]
        yield pb.ServerMessage(fit_ins=pb.ServerMessage.FitIns(
            parameters=ndarrays_to_parameters(sent),
            config={"local_epochs": pb.Scalar(sint64=3)}))
        res = next(replies).fit_res
        check("fit OK", res.status.code == pb.OK, str(res.status))
        got = parameters_to_ndarrays(res.parameters)
        check("fit doubled each tensor, dtypes kept",
              len(got) == 2 and all(g.dtype == s.dtype and np.array_equal(g, 2 * s)
                                    for g, s in zip(got, sent)), repr(got))
        check("fit num_examples from config", res.num_examples == 30, str(res.num_examples))
        check("fit metric", abs(res.metrics["loss"].double - 0.125) < 1e-12, str(res.metrics))

        yield pb.ServerMessage(evaluate_ins=pb.ServerMessage.EvaluateIns(
            parameters=ndarrays_to_parameters(sent[:1]), config={}))
        res = next(replies).evaluate_res
        expected = float(np.sum(sent[0], dtype=np.float64))
        check("evaluate loss is float32 sum", abs(res.loss - expected) < 1e-6,
              f"{res.loss} vs {expected}")
        check("evaluate examples", res.num_examples == 6, str(res.num_examples))

        bad = parameters_pb2.Parameters(tensors=[b"\x93NUMPY garbage"],
                                        tensor_type="numpy.ndarray")
        yield pb.ServerMessage(fit_ins=pb.ServerMessage.FitIns(parameters=bad, config={}))
        res = next(replies).fit_res
        check("garbage NPY answered with a non-OK status", res.status.code != pb.OK
              and res.status.message.startswith("error:"), str(res.status))

        yield pb.ServerMessage(reconnect_ins=pb.ServerMessage.ReconnectIns(seconds=0))
        res = next(replies)
        check("reconnect answered with DisconnectRes(RECONNECT)",
              res.WhichOneof("msg") == "disconnect_res"
              and res.disconnect_res.reason == pb.RECONNECT, str(res))


def main():
    limit = 2**31 - 1
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), options=[
        ("grpc.max_send_message_length", limit), ("grpc.max_receive_message_length", limit)])
    pb_grpc.add_FlowerServiceServicer_to_server(Servicer(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    tmp = sys.argv[2] + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(port))
    os.replace(tmp, sys.argv[2])
    finished = done.wait(timeout=90)
    server.stop(grace=2).wait()
    for name, ok, detail in results:
        print(("OK   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    failed = not finished or not all(ok for _, ok, _ in results)
    print("ALL OK" if not failed else "FAILED (finished=%s)" % finished)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
