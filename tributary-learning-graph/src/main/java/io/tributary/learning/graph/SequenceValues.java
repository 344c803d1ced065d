package io.tributary.learning.graph;

import io.tributary.core.values.StructValue;
import io.tributary.data.Batch;
import io.tributary.data.Dataset;
import java.util.ArrayList;
import java.util.List;

/** Datasets as sequence values: lists of {@code <x=...,y=...>} batch structs. */
public final class SequenceValues {
  private SequenceValues() {}

  /** The batch struct of one batch. */
  public static StructValue of(Batch batch) {
    return StructValue.named("x", batch.x(), "y", batch.y());
  }

  /** The dataset's batches in order (views of its storage). */
  public static List<StructValue> of(Dataset data, int batchSize) {
    return collect(data.batches(batchSize));
  }

  /** The dataset's batches in one seeded shuffled order. */
  public static List<StructValue> shuffled(Dataset data, int batchSize, long seed) {
    return collect(data.batches(batchSize, true, seed));
  }

  private static List<StructValue> collect(Iterable<Batch> batches) {
    List<StructValue> out = new ArrayList<>();
    for (Batch b : batches) {
      out.add(of(b));
    }
    return List.copyOf(out);
  }
}
