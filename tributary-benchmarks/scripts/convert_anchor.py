#!/usr/bin/env python3
"""The numpy side of run-convert.sh: makes the .npz, does the conversion as numpy would, and checks
that two .pb files hold the same arrays.

  make OUT.npz [--megabytes 400] [--compressed]   float32 arrays of about 40/25/20/10/5 % of the
                                                  total and a few small ones, uniform in [-1, 1)
  anchor IN.npz OUT.pb [--fsync]                  np.load the npz, np.save each array into a BytesIO
                                                  and write a Flower Parameters message (field 1 per
                                                  array, field 2 "numpy.ndarray") to OUT.pb as it
                                                  goes; --fsync also fsyncs OUT.pb and renames it
                                                  into place from a temporary file, as Tributary's
                                                  atomic write does
  check A.pb B.pb IN.npz                          both messages decode to IN's arrays, in order, with
                                                  the same dtypes and shapes; says whether the bytes
                                                  are identical
The message is written by hand (tag 0x0a, varint length, NPY bytes; tag 0x12, varint length, type),
so the anchor needs numpy only.
"""
import argparse
import io
import os
import sys

import numpy as np

TENSOR_TYPE = b"numpy.ndarray"


def varint(n):
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def make(a):
    total = a.megabytes * 1_000_000
    rng = np.random.default_rng(7)
    arrays = {}
    for i, share in enumerate([0.40, 0.25, 0.20, 0.10, 0.05]):
        n = int(total * share) // 4
        arrays[f"layer{i}.weight"] = rng.uniform(-1, 1, n).astype(np.float32).reshape(-1, 1000)
        arrays[f"layer{i}.bias"] = rng.uniform(-1, 1, 1000).astype(np.float32)
    arrays["step"] = np.array(12345, dtype=np.int64)
    (np.savez_compressed if a.compressed else np.savez)(a.out, **arrays)
    largest = max(v.nbytes for v in arrays.values())
    print(f"{a.out}: {os.path.getsize(a.out)} bytes, {len(arrays)} arrays, largest {largest} bytes")


def anchor(a):
    target = a.out
    path = target + ".tmp" if a.fsync else target
    with np.load(a.npz, allow_pickle=False) as z, open(path, "wb") as f:
        for name in z.files:
            bio = io.BytesIO()
            np.save(bio, z[name], allow_pickle=False)
            blob = bio.getbuffer()
            f.write(b"\x0a" + varint(len(blob)))
            f.write(blob)
            del blob, bio
        f.write(b"\x12" + varint(len(TENSOR_TYPE)) + TENSOR_TYPE)
        if a.fsync:
            f.flush()
            os.fsync(f.fileno())
    if a.fsync:
        os.replace(path, target)
        d = os.open(os.path.dirname(os.path.abspath(target)), os.O_RDONLY)
        try:
            os.fsync(d)
        finally:
            os.close(d)


def decode(path):
    data = open(path, "rb").read()
    i, tensors, tensor_type = 0, [], None

    def read_varint():
        nonlocal i
        shift = value = 0
        while True:
            b = data[i]
            i += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value

    while i < len(data):
        tag = read_varint()
        n = read_varint()
        payload = data[i:i + n]
        i += n
        if tag == 0x0A:
            tensors.append(np.load(io.BytesIO(payload), allow_pickle=False))
        elif tag == 0x12:
            tensor_type = payload.decode()
        else:
            sys.exit(f"{path}: unexpected tag {tag:#x}")
    return tensors, tensor_type


def check(a):
    with np.load(a.npz, allow_pickle=False) as z:
        want = [z[n] for n in z.files]
    for path in (a.a, a.b):
        got, tensor_type = decode(path)
        if tensor_type != TENSOR_TYPE.decode():
            sys.exit(f"{path}: tensor_type {tensor_type!r}")
        if len(got) != len(want) or any(
                g.dtype != w.dtype or g.shape != w.shape or not np.array_equal(g, w) for g, w in zip(got, want)):
            sys.exit(f"{path}: arrays differ from {a.npz}")
    same = open(a.a, "rb").read() == open(a.b, "rb").read()
    print(f"both decode to the {len(want)} arrays of {a.npz}; bytes {'identical' if same else 'DIFFER'}")
    if not same:
        sys.exit(1)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make")
    m.add_argument("out")
    m.add_argument("--megabytes", type=int, default=400)
    m.add_argument("--compressed", action="store_true")
    n = sub.add_parser("anchor")
    n.add_argument("npz")
    n.add_argument("out")
    n.add_argument("--fsync", action="store_true")
    c = sub.add_parser("check")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("npz")
    a = p.parse_args()
    {"make": make, "anchor": anchor, "check": check}[a.cmd](a)


if __name__ == "__main__":
    main()
