package io.tributary.graph.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalBatchTest {
  /** Batches of the given sizes over examples 0, 1, 2, ... (x = [i, -i], y = i). */
  private static List<LocalBatch> batches(int... sizes) {
    List<LocalBatch> out = new ArrayList<>();
    int next = 0;
    for (int size : sizes) {
      float[] x = new float[size * 2];
      long[] y = new long[size];
      for (int k = 0; k < size; k++) {
        x[2 * k] = next;
        x[2 * k + 1] = -next;
        y[k] = next++;
      }
      out.add(new LocalBatch(NdArray.wrapFloats(new int[] {size, 2}, x),
          NdArray.wrapLongs(DType.INT64, new int[] {size}, y), size));
    }
    return out;
  }

  private static List<Long> labels(List<LocalBatch> batches) {
    List<Long> out = new ArrayList<>();
    for (LocalBatch b : batches) {
      for (long v : b.y().longs()) {
        out.add(v);
      }
    }
    return out;
  }

  @Test
  void regroup_alreadyCutToTheSize_returnsTheSameBatches() {
    List<LocalBatch> given = batches(3, 3, 1);
    assertThat(LocalBatch.regroup(given, 3, "data")).isSameAs(given);
  }

  @Test
  void regroup_cutOtherwise_recutsTheExamplesInOrder() {
    for (int[] sizes : new int[][] {{3, 3}, {2, 1, 2}, {2, 3}, {2, 2, 0}}) {
      List<LocalBatch> given = batches(sizes);
      List<LocalBatch> out = LocalBatch.regroup(given, 2, "data");
      assertThat(out).isNotSameAs(given);
      assertThat(out).allSatisfy(b -> assertThat(b.size()).isBetween(1, 2));
      assertThat(out.subList(0, out.size() - 1))
          .allSatisfy(b -> assertThat(b.size()).isEqualTo(2));
      assertThat(labels(out)).isEqualTo(labels(given));
      float[] x = out.get(out.size() - 1).x().floats();
      long lastLabel = labels(given).get(labels(given).size() - 1);
      assertThat(x[x.length - 1]).isEqualTo(-lastLabel);
    }
  }
}
