"""Writes an NPY/NPZ corpus for NpyCorpusTest: python3 make_corpus.py OUT_DIR.

Every array is saved by numpy itself (np.save, numpy.lib.format.write_array, np.savez,
np.savez_compressed). Next to it goes what Java must decode it into: a canonical little-endian
C-order raw dump (numeric dtypes) or the list of element strings (U and S dtypes). manifest.json
lists every file. Entries flagged "exact" were written by np.save from a native little-endian
C-order array, so Npy.toBytes of the decoded tensor must reproduce the file byte for byte.
"""
import json
import os
import sys

import numpy as np
import numpy.lib.format as fmt

NUMERIC = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "complex64", "complex128"]


def values(dtype, shape, seed):
    """Deterministic values that exercise each dtype's extremes and special values."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    dt = np.dtype(dtype)
    if dt.kind == "b":
        flat = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        flat = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        edges = np.array([info.min, info.max, 0, 1], dtype=dt)
        flat[: min(n, 4)] = edges[: min(n, 4)]
    elif dt.kind == "f":
        flat = (rng.standard_normal(n) * 1000).astype(dt)
        edges = np.array([np.nan, np.inf, -np.inf, -0.0, np.finfo(dt).tiny, np.finfo(dt).max], dtype=dt)
        flat[: min(n, 6)] = edges[: min(n, 6)]
    else:
        part = np.float32 if dt.itemsize == 8 else np.float64
        real = (rng.standard_normal(n) * 100).astype(part)
        imag = (rng.standard_normal(n) * 100).astype(part)
        flat = (real + 1j * imag).astype(dt)
        if n >= 2:
            flat[0] = complex(np.nan, -0.0)
            flat[1] = complex(np.inf, -np.inf)
    return flat.reshape(shape)


TEXT = ["héllo", "日本語", "🎉 party", "", "a\x00b", "plain ascii", "Ωmega", "zz"]


def strings(shape, seed):
    n = int(np.prod(shape, dtype=np.int64))
    return [TEXT[(i + seed) % len(TEXT)] for i in range(n)]


class Corpus:
    def __init__(self, out):
        self.out = out
        self.manifest = []

    def expected(self, name, a):
        """What Java must decode `a` into, written next to the data."""
        entry = {"shape": list(a.shape)}
        if a.dtype.kind in "US":
            entry["dtype"] = "string"
            flat = a.reshape(-1, order="C")
            entry["strings"] = [x.decode("utf-8") if a.dtype.kind == "S" else str(x) for x in flat]
        else:
            entry["dtype"] = a.dtype.name
            canon = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<"))
            raw = name + ".raw"
            with open(os.path.join(self.out, raw), "wb") as f:
                f.write(canon.tobytes(order="C"))
            entry["raw"] = raw
        return entry

    def npy(self, name, a, version=None, exact=False):
        path = os.path.join(self.out, name + ".npy")
        if version is None:
            np.save(path, a)
        else:
            with open(path, "wb") as f:
                fmt.write_array(f, a, version=version)
        with open(path, "rb") as f:
            f.seek(0)
            major, minor = fmt.read_magic(f)
        entry = self.expected(name, a)
        entry.update({"kind": "npy", "file": name + ".npy", "exact": exact,
                      "version": f"{major}.{minor}", "fortran": bool(a.flags.f_contiguous and not a.flags.c_contiguous)})
        self.manifest.append(entry)

    def npz(self, name, compressed, positional=(), **named):
        path = os.path.join(self.out, name + ".npz")
        (np.savez_compressed if compressed else np.savez)(path, *positional, **named)
        arrays = []
        for i, a in enumerate(positional):
            e = self.expected(f"{name}.arr_{i}", np.asarray(a))
            e["name"] = f"arr_{i}"
            arrays.append(e)
        for key, a in named.items():
            e = self.expected(f"{name}.{key}", np.asarray(a))
            e["name"] = key
            arrays.append(e)
        self.manifest.append({"kind": "npz", "file": name + ".npz", "arrays": arrays})


def main(out):
    os.makedirs(out, exist_ok=True)
    c = Corpus(out)
    for i, d in enumerate(NUMERIC):
        c.npy(f"le_{d}", values(d, (3, 4), i), exact=True)
        c.npy(f"scalar_{d}", values(d, (), i), exact=True)
        c.npy(f"vec_{d}", values(d, (5,), i), exact=True)
        c.npy(f"empty_{d}", values(d, (0,), i), exact=True)
        c.npy(f"empty3_{d}", values(d, (3, 0, 2), i), exact=True)
        c.npy(f"cube_{d}", values(d, (2, 3, 4), i), exact=True)
        big_endian = values(d, (4, 3), i + 100).astype(np.dtype(d).newbyteorder(">"))
        c.npy(f"be_{d}", big_endian)
        c.npy(f"fortran_{d}", np.asfortranarray(values(d, (3, 4, 5), i + 200)))
        c.npy(f"fortran_be_{d}", np.asfortranarray(values(d, (2, 5, 3), i + 300).astype(np.dtype(d).newbyteorder(">"))))
        for v in (1, 2, 3):
            c.npy(f"v{v}_{d}", values(d, (2, 3), i + 400), version=(v, 0))
    c.npy("large_float64", values("float64", (513, 1029), 7), exact=True)
    c.npy("fortran_large_float32", np.asfortranarray(values("float32", (257, 130), 8)))
    c.npy("fortran_4d_int16", np.asfortranarray(values("int16", (2, 3, 4, 5), 9)))
    c.npy("fortran_1d_float32", np.asfortranarray(values("float32", (7,), 9)))
    c.npy("fortran_size1_axes", np.asfortranarray(values("float64", (1, 4, 1, 3), 10)))
    nan_payload = np.array([0x7FC00001, 0xFFC12345, 0x7F800001], dtype=np.uint32).view(np.float32)
    c.npy("nan_payloads", nan_payload, exact=True)

    c.npy("str_le", np.array(strings((2, 4), 0), dtype="<U12"))
    c.npy("str_native", np.array(strings((2, 4), 1)), exact=True)
    c.npy("str_be", np.array(strings((2, 4), 2), dtype=">U9"))
    c.npy("str_fortran", np.asfortranarray(np.array(strings((3, 4), 3))))
    c.npy("str_scalar", np.array("日本語"), exact=True)
    c.npy("str_empty", np.array([], dtype=str), exact=True)
    c.npy("str_empty3", np.zeros((3, 0, 2), dtype="<U4"))
    c.npy("str_all_empty", np.array(["", "", ""]), exact=True)
    byte_strings = np.array([s.encode("utf-8") for s in strings((2, 3), 4)], dtype="S").reshape(2, 3)
    c.npy("bytes_utf8", byte_strings)
    c.npy("bytes_fortran", np.asfortranarray(byte_strings))
    for v in (1, 2, 3):
        c.npy(f"v{v}_str", np.array(strings((3,), 5)), version=(v, 0))

    c.npz("savez", False, a=values("float32", (3, 4), 1), b=values("int64", (5,), 2),
          s=np.array(strings((4,), 6)), z=values("float64", (), 3), e=values("uint8", (0, 3), 4))
    c.npz("savez_compressed", True, w=values("float64", (64, 33), 5), mask=values("bool", (10,), 6),
          c=values("complex64", (2, 2), 7), s=np.array(strings((2, 2), 7)))
    c.npz("savez_positional", False, positional=(values("int32", (3,), 8), values("float16", (2, 2), 9)))
    c.npz("savez_compressed_zeros", True, zeros=np.zeros((256, 256), dtype=np.float32))
    c.npz("savez_mixed_order", True, f=np.asfortranarray(values("float32", (3, 5), 11)),
          be=values("int32", (4,), 12).astype(">i4"))

    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(c.manifest, f, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
