#!/usr/bin/env python3
"""Turns a JMH JSON result and numpy anchor JSON files into the markdown table of docs/benchmarks.md.

Every figure is a median over the measured samples (single-shot iterations in JMH, repeats in
numpy). A ratio is anchor time / Tributary time, so 2.0 means Tributary is twice as fast.
"""
import json
import statistics
import sys


def jmh_medians(path):
    out = {}
    for r in json.load(open(path)):
        name = r["benchmark"].rsplit(".", 1)[-1]
        cls = r["benchmark"].rsplit(".", 2)[-2]
        params = r.get("params") or {}
        key = cls + "." + name + "".join(f"[{k}={v}]" for k, v in sorted(params.items()) if k != "megabytes")
        raw = [x for fork in r["primaryMetric"]["rawData"] for x in fork]
        out[key] = (statistics.median(raw), r["primaryMetric"]["scoreUnit"], int(params.get("megabytes", 0)))
    return out


def numpy_medians(paths):
    samples = {}
    mb = 0
    for p in paths:
        d = json.load(open(p))
        mb = d["megabytes"]
        for k, v in d.items():
            if isinstance(v, dict) and "samples_ms" in v:
                samples.setdefault(k, []).extend(v["samples_ms"])
    return {k: statistics.median(v) for k, v in samples.items()}, mb


def main():
    jmh = jmh_medians(sys.argv[1])
    npy, mb = numpy_medians(sys.argv[2:])
    rows = []

    def gbps(ms, megabytes):
        return megabytes / 1000.0 / (ms / 1000.0)

    for key, (ms, unit, megabytes) in sorted(jmh.items()):
        assert unit == "ms/op", unit
        rows.append((key, ms, gbps(ms, megabytes)))
    print("| case | median ms | GB/s |")
    print("|---|---:|---:|")
    for key, ms, g in rows:
        print(f"| {key} | {ms:.2f} | {g:.2f} |")
    for key, ms in sorted(npy.items()):
        print(f"| numpy {key} | {ms:.2f} | {gbps(ms, mb):.2f} |")
    print()
    print("| comparison | anchor median ms | Tributary median ms | ratio (anchor / Tributary) |")
    print("|---|---:|---:|---:|")
    pairs = [
        ("NPY encode vs np.save(BytesIO)", npy.get("np_save_bytesio"), jmh.get("NpyBenchmark.npyEncode")),
        ("NPY decode (copy) vs np.load(BytesIO)", npy.get("np_load_bytesio"), jmh.get("NpyBenchmark.npyDecode")),
        ("NPY decode (view) vs np.load(BytesIO)", npy.get("np_load_bytesio"), jmh.get("NpyBenchmark.npyView")),
    ]
    for dt in ("float32", "float64"):
        for op in ("Encode", "Decode"):
            anchor = jmh.get(f"ProtoValueBenchmark.protobufJava{op}[dtype={dt}]")
            narrow = jmh.get(f"ProtoValueBenchmark.protobufJava{'ToByteArrayOnly' if op == 'Encode' else 'ParseOnly'}[dtype={dt}]")
            mine = jmh.get(f"ProtoValueBenchmark.tributary{op}[dtype={dt}]")
            if anchor and mine:
                pairs.append((f"proto.ndarray {dt} {op.lower()} vs protobuf-java (tensor <-> bytes)", anchor[0], mine))
            if narrow and mine:
                pairs.append((f"proto.ndarray {dt} {op.lower()} vs protobuf-java {'toByteArray' if op == 'Encode' else 'parseFrom'} alone", narrow[0], mine))
    for label, anchor, mine in pairs:
        if anchor is None or mine is None:
            continue
        mine_ms = mine[0]
        print(f"| {label} | {anchor:.2f} | {mine_ms:.2f} | {anchor / mine_ms:.2f}x |")


if __name__ == "__main__":
    main()
