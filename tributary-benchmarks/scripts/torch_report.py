#!/usr/bin/env python3
"""Prints run-pytorch.sh's table (Markdown) from its JSON lines; fails naming a thread mismatch."""
import json
import statistics
import sys

CASES = [("matmul_gflops", "matmul 512³ float32, GFLOPS"), ("2nn_epoch_s", "2NN epoch, s"),
         ("cnn_epoch_s", "CNN epoch, s")]


def main(path):
    lines = [json.loads(line) for line in open(path) if line.strip()]
    head = lines[0]
    end = next((x["load_end"] for x in lines if "load_end" in x), None)
    runs = [x for x in lines if "side" in x]
    wrong = [x for x in runs if "threads_asked" in x and x["threads"] != x["threads_asked"]]
    torch_version = next((x["torch"] for x in runs if x["side"] == "pytorch"), "?")
    java = next((x["java"] for x in runs if x["side"] == "tributary"), "?")
    print(f"started {head['started']}, load average {head['load_start']} at the start, {end} at "
          f"the end, {head['cores']} cores; PyTorch {torch_version}, JDK {java}")
    if head.get("under_load"):
        print(f"**{head['under_load']}**")
    print()
    print("| case | threads | PyTorch | Tributary | variant | Tributary / PyTorch |"
          " CPU s, PyTorch / Tributary | ratio by CPU s |")
    print("|---|---:|---:|---:|---|---:|---:|---:|")
    threads = sorted({x["threads"] for x in runs})
    problems = []
    for key, label in CASES:
        for t in threads:
            torch_runs = [x for x in runs if x["side"] == "pytorch" and x["threads"] == t
                          and key in x]
            if not torch_runs:
                continue
            anchor = statistics.median(s for x in torch_runs for s in x[key]["samples"])
            for x in runs:
                if x["side"] != "tributary" or x["threads"] != t or key not in x:
                    continue
                mine = x[key]["median"]
                cpu = ("", "")
                if key == "matmul_gflops":
                    ratio = f"{100 * mine / anchor:.0f}% of PyTorch's GFLOPS"
                    fig = (f"{anchor:.1f}", f"{mine:.1f}")
                else:
                    ratio = f"**{mine / anchor:.2f}x** PyTorch's time"
                    fig = (f"{anchor:.3f}", f"{mine:.3f}")
                    # CPU seconds: what still compares when other processes share the cores.
                    ckey = key.replace("_epoch_s", "_epoch_cpu_s")
                    tc = [s for r in torch_runs if ckey in r for s in r[ckey]["samples"]]
                    if tc and ckey in x:
                        a, m = statistics.median(tc), x[ckey]["median"]
                        cpu = (f"{a:.3f} / {m:.3f}", f"{m / a:.2f}x")
                print(f"| {label} | {t} | {fig[0]} | {fig[1]} | {x.get('variant', 'plain')}"
                      f" ({x['kernel']}) | {ratio} | {cpu[0]} | {cpu[1]} |")
    for t in threads:
        sides = {x["side"] for x in runs if x["threads"] == t}
        if sides != {"pytorch", "tributary"}:
            problems.append(f"at {t} threads only {sorted(sides)} ran")
    for x in wrong:
        problems.append(f"{x['side']} ran on {x['threads']} threads, {x['threads_asked']} asked for")
    for p in problems:
        print(f"precondition failed: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
