"""Python side of the FEP-0002 interop tests, using protobuf code generated from our .proto.

Usage:
  fep0002_interop.py GEN_DIR check-proto PARAMS EXPECTED   proto.ndarray written by Java
  fep0002_interop.py GEN_DIR check-numpy PARAMS EXPECTED   numpy.ndarray written by Java
  fep0002_interop.py GEN_DIR write-proto OUT               proto.ndarray for Java to read

EXPECTED has one tab-separated line per tensor: name, Tributary dtype, shape (comma-separated,
empty for a scalar), and the data: hex of the little-endian element bytes, or for strings the
comma-separated hex of each element's UTF-8.
"""
import io
import sys

import numpy as np

sys.path.insert(0, sys.argv[1])
from flwr.proto import parameters_pb2 as pb  # noqa: E402

V = pb.Value

# How Tributary writes each dtype (docs/serialization.md), restated independently of the Java code:
# DataType name, data field, numpy dtype of one wire item (None: compare raw bytes).
WRITTEN = {
    "float64": ("DT_DOUBLE", "double", "<f8"),
    "float32": ("DT_FLOAT", "float", "<f4"),
    "int32": ("DT_SFIXED32", "sfixed32", "<i4"),
    "int64": ("DT_SFIXED64", "sfixed64", "<i8"),
    "uint32": ("DT_FIXED32", "fixed32", "<u4"),
    "uint64": ("DT_FIXED64", "fixed64", "<u8"),
    "bool": ("DT_BOOL", "bool", "|b1"),
    "string": ("DT_STRING", "string", None),
    "int8": ("DT_INT8", "raw", "<i1"),
    "int16": ("DT_INT16", "raw", "<i2"),
    "uint8": ("DT_UINT8", "raw", "<u1"),
    "uint16": ("DT_UINT16", "raw", "<u2"),
    "float16": ("DT_FLOAT16", "raw", "<f2"),
    "bfloat16": ("DT_BFLOAT16", "raw", None),
    "complex64": ("DT_COMPLEX64", "float", "<f4"),
    "complex128": ("DT_COMPLEX128", "double", "<f8"),
}
COMPLEX = {"complex64": "<c8", "complex128": "<c16"}


def expected_lines(path):
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            name, dtype, shape, data = line.split("\t")
            dims = tuple(int(d) for d in shape.split(",")) if shape else ()
            yield name, dtype, dims, data


def expect(cond, message):
    if not cond:
        raise AssertionError(message)


def check_proto(params_path, expected_path):
    p = pb.Parameters()
    with open(params_path, "rb") as f:
        p.ParseFromString(f.read())
    expect(p.tensor_type == "proto.ndarray", f"tensor_type {p.tensor_type!r}")
    expect(len(p.tensors) == 0, "tensors field should be empty")
    expected = list(expected_lines(expected_path))
    expect(len(p.values) == len(expected), f"{len(p.values)} values, expected {len(expected)}")
    checked = 0
    for v, (name, dtype, dims, data) in zip(p.values, expected):
        where = f"value {name!r} ({dtype})"
        dt_name, field, item = WRITTEN[dtype]
        expect(V.DataType.Name(v.dtype) == dt_name, f"{where}: dtype {V.DataType.Name(v.dtype)}")
        expect(v.name == name, f"{where}: name {v.name!r}")
        expect(tuple(v.shape) == dims, f"{where}: shape {tuple(v.shape)}")
        present = {fd.name for fd, _ in v.ListFields()}
        expect(present <= {"dtype", "shape", "name", field}, f"{where}: unexpected fields {present}")
        count = int(np.prod(dims, dtype=np.int64))
        if dtype == "string":
            want = [bytes.fromhex(h).decode("utf-8") for h in data.split(",")] if data else []
            expect(list(v.string) == want, f"{where}: strings {list(v.string)} != {want}")
            checked += len(want)
            continue
        if field == "raw":
            got = bytes(v.raw)
            if item is not None:
                arr = np.frombuffer(got, dtype=item)
                expect(arr.size == count, f"{where}: {arr.size} elements, shape needs {count}")
                got = arr.reshape(dims).tobytes()
        else:
            arr = np.array(list(getattr(v, field)), dtype=item)
            if dtype in COMPLEX:
                arr = arr.view(COMPLEX[dtype])
            expect(arr.size == count, f"{where}: {arr.size} elements, shape needs {count}")
            got = arr.reshape(dims).tobytes()
        expect(got == bytes.fromhex(data), f"{where}: data {got.hex()} != {data}")
        checked += count
    print(f"checked {len(expected)} values, {checked} elements")


def check_numpy(params_path, expected_path):
    p = pb.Parameters()
    with open(params_path, "rb") as f:
        p.ParseFromString(f.read())
    expect(p.tensor_type == "numpy.ndarray", f"tensor_type {p.tensor_type!r}")
    expected = list(expected_lines(expected_path))
    expect(len(p.tensors) == len(expected), f"{len(p.tensors)} tensors, expected {len(expected)}")
    for blob, (name, dtype, dims, data) in zip(p.tensors, expected):
        # What Flower's parameters_to_ndarrays does with every tensor.
        arr = np.load(io.BytesIO(blob), allow_pickle=False)
        where = f"tensor {name!r} ({dtype})"
        expect(arr.shape == dims, f"{where}: shape {arr.shape}")
        if dtype == "string":
            want = [bytes.fromhex(h).decode("utf-8") for h in data.split(",")] if data else []
            expect(arr.reshape(-1).tolist() == want, f"{where}: strings {arr.tolist()}")
            continue
        expect(arr.dtype == np.dtype(dtype), f"{where}: numpy dtype {arr.dtype}")
        got = np.ascontiguousarray(arr).tobytes()
        expect(got == bytes.fromhex(data), f"{where}: data {got.hex()} != {data}")
    print(f"checked {len(expected)} tensors")


def write_proto(out_path):
    p = pb.Parameters(tensor_type="proto.ndarray")

    def add(**kw):
        p.values.append(V(**kw))

    ints32 = [-(2**31), -1, 0, 1, 2**31 - 1]
    ints64 = [-(2**63), -1, 0, 2**63 - 1]
    add(name="i32", dtype=V.DT_INT32, int32=ints32, shape=[5])
    add(name="si32", dtype=V.DT_SINT32, sint32=ints32, shape=[5])
    add(name="sf32", dtype=V.DT_SFIXED32, sfixed32=ints32, shape=[5])
    add(name="i64", dtype=V.DT_INT64, int64=ints64, shape=[2, 2])
    add(name="si64", dtype=V.DT_SINT64, sint64=ints64, shape=[2, 2])
    add(name="u32", dtype=V.DT_UINT32, uint32=[0, 1, 2**32 - 1], shape=[3])
    add(name="u64", dtype=V.DT_UINT64, uint64=[0, 2**64 - 1, 2**63], shape=[3])
    add(name="f64", dtype=V.DT_FIXED64, fixed64=[2**64 - 2], shape=[1])
    add(name="b", dtype=V.DT_BOOL, bool=[True, False, True], shape=[3])
    add(name="s", dtype=V.DT_STRING, string=["", "h\u00e9llo", "\U0001F600"], shape=[3])
    add(name="d", dtype=V.DT_DOUBLE, double=[0.1, -2.5, 1e300, float("inf")], shape=[2, 2])
    add(name="f", dtype=V.DT_FLOAT, float=[0.5, -1.25], shape=[2])
    add(name="h", dtype=V.DT_FLOAT16, raw=np.array([1.0, -0.5, 65504], "<f2").tobytes(), shape=[3])
    add(name="c", dtype=V.DT_COMPLEX64,
        float=np.array([1 + 2j, -3.5 + 0j], "<c8").view("<f4").tolist(), shape=[2])
    add(name="scalar", dtype=V.DT_DOUBLE, double=[3.25])
    add(dtype=V.DT_FIXED32, fixed32=[7], shape=[1])
    add(name="u8", dtype=V.DT_UINT8, raw=bytes([0, 255, 128]), shape=[3])
    add(name="empty", dtype=V.DT_FLOAT, shape=[0, 3])
    with open(out_path, "wb") as f:
        f.write(p.SerializeToString())
    print(f"wrote {len(p.values)} values")


if __name__ == "__main__":
    mode = sys.argv[2]
    if mode == "check-proto":
        check_proto(sys.argv[3], sys.argv[4])
    elif mode == "check-numpy":
        check_numpy(sys.argv[3], sys.argv[4])
    elif mode == "write-proto":
        write_proto(sys.argv[3])
    else:
        raise SystemExit(f"unknown mode {mode}")
