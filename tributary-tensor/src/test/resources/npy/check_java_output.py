"""Checks the NPY/NPZ files Java wrote: python3 check_java_output.py DIR.

DIR/manifest.json lists each file with the dtype, shape and values (a little-endian raw dump or
the element strings) that numpy must load from it with allow_pickle=False. Files written with
numpy's default version must also be byte-identical to np.save of the loaded array.
Prints "checked N arrays" and exits 1 listing every mismatch.
"""
import io
import json
import os
import sys

import numpy as np
import numpy.lib.format as fmt


def check_array(directory, a, spec, what, problems):
    shape = tuple(spec["shape"])
    if a.shape != shape:
        problems.append(f"{what}: shape {a.shape} != {shape}")
        return
    if spec["dtype"] == "string":
        want = spec["strings"]
        width = max([1] + [len(s) for s in want])
        if a.dtype.str != f"<U{width}":
            problems.append(f"{what}: dtype {a.dtype.str} != <U{width}")
        got = [str(x) for x in a.reshape(-1)]
        if got != want:
            problems.append(f"{what}: strings {got!r} != {want!r}")
        return
    want_dtype = np.dtype(spec["dtype"]).newbyteorder("<")
    if a.dtype != want_dtype or a.dtype.byteorder == ">":
        problems.append(f"{what}: dtype {a.dtype.str} != {want_dtype.str}")
        return
    with open(os.path.join(directory, spec["raw"]), "rb") as f:
        raw = f.read()
    got = np.ascontiguousarray(a).tobytes(order="C")
    if got != raw:
        problems.append(f"{what}: values differ ({len(got)} vs {len(raw)} bytes)")


def main(directory):
    with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    problems = []
    checked = 0
    for entry in manifest:
        path = os.path.join(directory, entry["file"])
        if entry["kind"] == "npy":
            with open(path, "rb") as f:
                data = f.read()
            with open(path, "rb") as f:
                version = "%d.%d" % fmt.read_magic(f)
                if version == "1.0":
                    fmt.read_array_header_1_0(f)
                else:
                    fmt.read_array_header_2_0(f)
                if f.tell() % 64 != 0:
                    problems.append(f"{entry['file']}: data starts at {f.tell()}, not on a 64-byte boundary")
            if version != entry["version"]:
                problems.append(f"{entry['file']}: version {version} != {entry['version']}")
            a = np.load(path, allow_pickle=False)
            check_array(directory, a, entry, entry["file"], problems)
            if entry.get("default_version"):
                buf = io.BytesIO()
                np.save(buf, a)
                if buf.getvalue() != data:
                    problems.append(f"{entry['file']}: differs from np.save of the same array")
            checked += 1
        else:
            with np.load(path, allow_pickle=False) as z:
                names = [s["name"] for s in entry["arrays"]]
                if list(z.files) != names:
                    problems.append(f"{entry['file']}: entries {z.files} != {names}")
                for spec in entry["arrays"]:
                    check_array(directory, z[spec["name"]], spec, entry["file"] + ":" + spec["name"], problems)
                    checked += 1
    print(f"checked {checked} arrays")
    if problems:
        print("\n".join(problems))
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1])
