package io.tributary.graph.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.values.StructValue;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import org.junit.jupiter.api.Test;

class BatchCacheTest {
  /** A batch of {@code n} examples of 2 float32 features (8 bytes) and an int64 label (8). */
  private static StructValue batch(int n) {
    return StructValue.named("x", Tensor.ofFloats(Shape.of(n, 2), new float[2 * n]),
        "y", Tensor.ofLongs(Shape.of(n), new long[n]));
  }

  /** Reads {@code b} twice, so that the cache keeps it (from the second read on). */
  private static LocalBatch readTwice(BatchCache cache, StructValue b, long index) {
    cache.read(b, "data", index);
    return cache.read(b, "data", index);
  }

  @Test
  void read_sameValueAgain_keepsItFromTheSecondRead() {
    BatchCache cache = new BatchCache(1 << 20);
    StructValue b = batch(3);
    LocalBatch first = cache.read(b, "data", 0);
    assertThat(cache.size()).isZero();
    LocalBatch second = cache.read(b, "data", 0);
    assertThat(second).isNotSameAs(first);
    assertThat(cache.read(b, "data", 0)).isSameAs(second);
    assertThat(cache.bytes()).isEqualTo(3 * 16);
  }

  @Test
  void read_valuesReadOnceEach_keepsNothing() {
    BatchCache cache = new BatchCache(1 << 20);
    for (int i = 0; i < 3 * BatchCache.NOTED; i++) {
      cache.read(batch(1), "data", i);
    }
    assertThat(cache.size()).isZero();
    assertThat(cache.bytes()).isZero();
  }

  @Test
  void read_equalButDistinctValue_convertsItAgain() {
    BatchCache cache = new BatchCache(1 << 20);
    StructValue a = batch(3);
    StructValue b = batch(3);
    LocalBatch first = readTwice(cache, a, 0);
    assertThat(readTwice(cache, b, 0)).isNotSameAs(first);
    assertThat(cache.size()).isEqualTo(2);
  }

  @Test
  void read_pastTheCap_dropsTheLeastRecentlyRead() {
    BatchCache cache = new BatchCache(2 * 16 * 4);
    StructValue a = batch(4);
    StructValue b = batch(4);
    StructValue c = batch(4);
    LocalBatch la = readTwice(cache, a, 0);
    LocalBatch lb = readTwice(cache, b, 1);
    cache.read(a, "data", 0);
    readTwice(cache, c, 2);
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.bytes()).isEqualTo(2 * 16 * 4);
    assertThat(cache.read(a, "data", 0)).isSameAs(la);
    assertThat(cache.read(b, "data", 1)).isNotSameAs(lb);
  }

  @Test
  void read_batchLargerThanTheCap_isConvertedButNotKept() {
    BatchCache cache = new BatchCache(10);
    StructValue b = batch(4);
    LocalBatch first = readTwice(cache, b, 0);
    assertThat(first.size()).isEqualTo(4);
    assertThat(cache.read(b, "data", 0)).isNotSameAs(first);
    assertThat(cache.size()).isZero();
  }

  @Test
  void read_malformedValue_throwsNamingTheBatch() {
    BatchCache cache = new BatchCache(1 << 20);
    assertThatThrownBy(() -> cache.read("nope", "data", 7))
        .isInstanceOf(LocalRunException.class).hasMessageContaining("data, batch 7");
  }

  @Test
  void new_negativeCap_throws() {
    assertThatThrownBy(() -> new BatchCache(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
