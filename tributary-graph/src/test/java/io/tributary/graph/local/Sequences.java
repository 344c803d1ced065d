package io.tributary.graph.local;

import io.tributary.core.values.StructValue;
import io.tributary.data.Dataset;
import java.util.ArrayList;
import java.util.List;

/** Turns datasets into sequence values: lists of {@code <x=...,y=...>} structs. */
final class Sequences {
  private Sequences() {}

  static List<StructValue> of(Dataset data, int batchSize) {
    List<StructValue> out = new ArrayList<>();
    for (io.tributary.data.Batch b : data.batches(batchSize)) {
      out.add(StructValue.named("x", b.x(), "y", b.y()));
    }
    return out;
  }

  static List<StructValue> shuffled(Dataset data, int batchSize, long seed) {
    List<StructValue> out = new ArrayList<>();
    for (io.tributary.data.Batch b : data.batches(batchSize, true, seed)) {
      out.add(StructValue.named("x", b.x(), "y", b.y()));
    }
    return out;
  }
}
