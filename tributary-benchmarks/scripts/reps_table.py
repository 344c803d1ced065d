#!/usr/bin/env python3
"""Medians and ranges of the figures repeat_self (reps.sh) collected, and the markdown rows.

Reads FIGURES (lines: repetition, key, value; tab-separated) and prints every key's median,
range and count, then each ROW template with {KEY} replaced by the median, {KEY~} by the
range "min-max", {KEY+} by the sum and {KEY#} by the number of repetitions with that key; an
optional format spec follows a colon, as in {wall_s:.1f} or {wall_s~:.1f}. A key no repetition
recorded prints as "n/a", so a missing figure shows instead of stopping the table.
"""
import argparse
import re
import statistics
import sys

PLACEHOLDER = re.compile(r"\{(\w+)([~#+]?)(?::([^}]*))?\}")


def load(path):
    values = {}
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                continue
            try:
                values.setdefault(parts[1], []).append(float(parts[2]))
            except ValueError:
                print(f"reps_table.py: not a number for {parts[1]}: {parts[2]!r}", file=sys.stderr)
    return values


def fill(template, values):
    def one(m):
        key, kind, spec = m.group(1), m.group(2), m.group(3) or "g"
        xs = values.get(key)
        if not xs:
            return "n/a"
        if kind == "#":
            return str(len(xs))
        if kind == "+":
            return format(sum(xs), spec)
        if kind == "~":
            return f"{format(min(xs), spec)}-{format(max(xs), spec)}"
        return format(statistics.median(xs), spec)

    return PLACEHOLDER.sub(one, template)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("figures")
    p.add_argument("--header", default="")
    p.add_argument("--row", action="append", default=[], dest="rows")
    a = p.parse_args()
    values = load(a.figures)
    if a.header:
        print(a.header)
    print(f"{'figure':<28} {'median':>12} {'min':>12} {'max':>12}  n")
    for key, xs in values.items():
        print(f"{key:<28} {statistics.median(xs):>12.4g} {min(xs):>12.4g} {max(xs):>12.4g}  {len(xs)}")
    if a.rows:
        print()
        for row in a.rows:
            print(fill(row, values))


if __name__ == "__main__":
    main()
