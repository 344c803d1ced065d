"""Writes the Parquet files ParquetClientsTest reads, with pyarrow, into the directory argv[1].

good.parquet (Snappy, pyarrow's default) and good.csv hold the same rows, so that the Java
readers of both can be compared; the other files each hold one problem.
"""
import math
import sys

import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]

users, labels, f0, f1, f2 = [], [], [], [], []
for i in range(60):
    users.append("u%d" % (i % 3 if i < 45 else i % 2))
    labels.append(i % 4)
    f0.append(i * 0.25 - 3.0)
    f1.append(float(i % 7) / 8.0)
    f2.append(i * 3 - 50)
good = pa.table({
    "user": pa.array(users, pa.string()),
    "f0": pa.array(f0, pa.float64()),
    "label": pa.array(labels, pa.int64()),
    "f1": pa.array(f1, pa.float32()),
    "f2": pa.array(f2, pa.int32()),
})
pq.write_table(good, out + "/good.parquet", row_group_size=16)
with open(out + "/good.csv", "w") as f:
    f.write("user,f0,label,f1,f2\n")
    for r in range(60):
        f.write("%s,%r,%d,%r,%d\n" % (users[r], f0[r], labels[r], f1[r], f2[r]))

# Integer client ids, gzip pages, a float label holding whole numbers.
pq.write_table(pa.table({
    "device": pa.array([7, 7, 9, 9, 9, 7, 11, 11, 11, 11], pa.int32()),
    "y": pa.array([0.0, 1.0, 2.0, 1.0, 0.0, 2.0, 1.0, 1.0, 0.0, 2.0], pa.float64()),
    "x": pa.array([float(i) for i in range(10)], pa.float64()),
}), out + "/ints.parquet", compression="gzip")


def one(name, columns, **kw):
    pq.write_table(pa.table(columns), out + "/" + name + ".parquet", **kw)


base = lambda n: {"user": pa.array(["a", "b"] * (n // 2), pa.string()),
                  "label": pa.array([0, 1] * (n // 2), pa.int64())}

t = base(6); t["f0"] = pa.array([1.0, 2.0, 3.0, 4.0, math.nan, 6.0]); one("nan", t)
t = base(6); t["f0"] = pa.array([1.0, 2.0, math.inf, 4.0, 5.0, 6.0]); one("inf", t)
t = base(6); t["f0"] = pa.array(["1", "2", "3", "4", "5", "6"], pa.string()); one("string_feature", t)
t = base(4); t["when"] = pa.array([0, 1, 2, 3], pa.timestamp("ms")); one("timestamp_feature", t)
t = base(4); t["f0"] = pa.array([[1.0], [2.0], [3.0], [4.0]], pa.list_(pa.float64())); one("list_feature", t)
t = base(4); t["f0"] = pa.array([1.0, 2.0, 3.0, 4.0]); t["label"] = pa.array([0, None, 1, 0], pa.int64()); one("null_label", t)
t = base(4); t["f0"] = pa.array([1.0, 2.0, 3.0, 4.0]); t["label"] = pa.array([0.0, 1.0, 1.5, 0.0]); one("fractional_label", t)
t = base(4); t["f0"] = pa.array([1.0, 2.0, 3.0, 4.0]); t["label"] = pa.array([0, 1, 7, 0], pa.int64()); one("label_out_of_range", t)
t = base(4); t["f0"] = pa.array([1.0, 2.0, 3.0, 4.0]); del t["label"]; one("no_label", t)
t = base(4); t["f0"] = pa.array([1.0, 2.0, 3.0, 4.0]); one("zstd", t, compression="zstd")
with open(out + "/not_parquet.parquet", "w") as f:
    f.write("user,label,f0\na,0,1\n")
