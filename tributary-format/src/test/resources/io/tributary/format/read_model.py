"""Reads a Tributary model file with Python's zipfile, numpy and flatc-generated code.

Usage: read_model.py MODEL.zip GENERATED_DIR OUT_DIR

Writes OUT_DIR/arrays.npz (every parameter and updater state array, bfloat16 as its raw uint16
bits) and OUT_DIR/index.tsv, one line per array: key, tag, kind, percent-encoded name, dtype,
percent-encoded strings (string arrays only); plus one "config" line per tag. Uses nothing from
Tributary but the .fbs schemas (through GENERATED_DIR) and docs/model-format.md's rules.
"""
import struct
import sys
import urllib.parse
import zipfile

import numpy as np

sys.path.insert(0, sys.argv[2])
from tributary.model.ArrayHeader import ArrayHeader  # noqa: E402
from tributary.model.DataType import DataType  # noqa: E402
from tributary.model.TrainingConfig import TrainingConfig  # noqa: E402

SUPPORTED_VERSION = 1
NUMPY = {
    DataType.BOOL: ("bool", np.bool_), DataType.INT8: ("int8", "<i1"), DataType.INT16: ("int16", "<i2"),
    DataType.INT32: ("int32", "<i4"), DataType.INT64: ("int64", "<i8"), DataType.UINT8: ("uint8", "<u1"),
    DataType.UINT16: ("uint16", "<u2"), DataType.UINT32: ("uint32", "<u4"), DataType.UINT64: ("uint64", "<u8"),
    DataType.FLOAT16: ("float16", "<f2"), DataType.BFLOAT16: ("bfloat16", "<u2"),
    DataType.FLOAT32: ("float32", "<f4"), DataType.FLOAT64: ("float64", "<f8"),
    DataType.COMPLEX64: ("complex64", "<c8"), DataType.COMPLEX128: ("complex128", "<c16"),
}


def read_array(z, entry):
    buf = z.read(entry)
    (size,) = struct.unpack_from("<I", buf, 0)
    assert ArrayHeader.ArrayHeaderBufferHasIdentifier(buf, 4), entry
    h = ArrayHeader.GetRootAs(buf, 4)
    assert h.FormatVersion() <= SUPPORTED_VERSION, (entry, h.FormatVersion())
    shape = tuple(h.Shape(i) for i in range(h.ShapeLength()))
    if h.Dtype() == DataType.UTF8:
        return "string", shape, [h.Strings(i).decode("utf-8") for i in range(h.StringsLength())]
    name, dt = NUMPY[h.Dtype()]
    count = int(np.prod(shape, dtype=np.int64))
    arr = np.frombuffer(buf, dtype=dt, count=count, offset=h.DataOffset()).reshape(shape)
    assert arr.nbytes == h.DataLength() and h.DataOffset() + h.DataLength() == len(buf), entry
    return name, shape, arr


def refs(line):
    """A params.txt/updater.txt line: percent-encoded name, then [tag/]index references."""
    tokens = line.split(" ")
    return urllib.parse.unquote(tokens[0], errors="strict"), tokens[1:]


def entry_of(tag, kind, ref):
    owner, _, index = ref.rpartition("/")
    return f"{owner or tag}/{kind}/{index}.fb"


def main():
    model, out = sys.argv[1], sys.argv[3]
    arrays, index = {}, []
    with zipfile.ZipFile(model) as z:
        tags = [t for t in z.read("tags.txt").decode("utf-8").split("\n") if t]
        for tag in tags:
            for kind, text in (("params", "params.txt"), ("updater", "updater.txt")):
                for line in z.read(f"{tag}/{text}").decode("utf-8").split("\n"):
                    if not line:
                        continue
                    name, rs = refs(line)
                    for i, ref in enumerate(rs):
                        dtype, shape, value = read_array(z, entry_of(tag, kind, ref))
                        key = f"a{len(index)}"
                        q = urllib.parse.quote(name, safe="")
                        if dtype == "string":
                            index.append([key, tag, f"{kind}{i}", q, dtype, urllib.parse.quote("\n".join(value), safe="")])
                        else:
                            arrays[key] = value
                            index.append([key, tag, f"{kind}{i}", q, dtype, ""])
            c = TrainingConfig.GetRootAs(z.read(f"{tag}/trainingConfig.fb"), 0)
            hps = ",".join(f"{c.Hyperparameters(i).Name().decode()}={c.Hyperparameters(i).Value()!r}"
                           for i in range(c.HyperparametersLength()))
            opt = (c.Optimizer() or b"").decode()
            index.append(["config", tag, opt, str(c.Round()), hps, str(c.IterationCount())])
    np.savez(f"{out}/arrays.npz", **arrays)
    with open(f"{out}/index.tsv", "w", encoding="utf-8") as f:
        for row in index:
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
