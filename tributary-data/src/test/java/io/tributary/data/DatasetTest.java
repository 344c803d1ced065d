package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class DatasetTest {

  /** n examples of 3 features; example i has features (i, i + 0.25, i + 0.5) and label i % c. */
  static Dataset toy(int n, int classes) {
    float[] x = new float[n * 3];
    int[] y = new int[n];
    for (int i = 0; i < n; i++) {
      x[3 * i] = i;
      x[3 * i + 1] = i + 0.25f;
      x[3 * i + 2] = i + 0.5f;
      y[i] = i % classes;
    }
    return Dataset.fromArrays("toy", x, new long[] {3}, y, classes);
  }

  /** The example ids (first feature) of a batch, checking each row and label is intact. */
  static int[] ids(Batch b, int classes) {
    int[] out = new int[b.size()];
    for (int r = 0; r < b.size(); r++) {
      float id = b.x().getFloat(3L * r);
      assertThat(b.x().getFloat(3L * r + 2)).isEqualTo(id + 0.5f);
      assertThat(b.y().getLong(r)).isEqualTo((long) id % classes);
      out[r] = (int) id;
    }
    return out;
  }

  static Stream<Arguments> badConstructorArgs() {
    Tensor x = Tensor.ofFloats(Shape.of(2, 2), 1, 2, 3, 4);
    Tensor y = Tensor.ofLongs(Shape.of(2), 0, 1);
    return Stream.of(
        Arguments.of(Tensor.ofDoubles(Shape.of(2, 2), 1, 2, 3, 4), y, 2, "features must be float32"),
        Arguments.of(Tensor.ofFloats(Shape.of(2), 1, 2), y, 2, "rank >= 2"),
        Arguments.of(x, Tensor.ofInts(Shape.of(2), 0, 1), 2, "labels must be int64"),
        Arguments.of(x, Tensor.ofLongs(Shape.of(3), 0, 1, 1), 2, "2 feature rows but 3 labels"),
        Arguments.of(x, y, 0, "numClasses must be >= 1"),
        Arguments.of(x, Tensor.ofLongs(Shape.of(2), 0, 2), 2, "label 2 of example 1"),
        Arguments.of(x, Tensor.ofLongs(Shape.of(2), -1, 0), 2, "label -1 of example 0"));
  }

  @ParameterizedTest
  @MethodSource("badConstructorArgs")
  void constructor_invalidInput_throwsNamingProblem(Tensor x, Tensor y, int classes, String msg) {
    assertThatThrownBy(() -> new Dataset("d", x, y, classes))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("d: ")
        .hasMessageContaining(msg);
  }

  @ParameterizedTest
  @CsvSource({"10,3,4", "10,5,2", "10,10,1", "10,11,1", "10,1,10", "0,4,0"})
  void batches_anySize_coverAllWithRemainderLast(int n, int batchSize, int expectedBatches) {
    Dataset d = n == 0 ? toy(1, 2).subset("empty", new int[0]) : toy(n, 2);
    for (boolean shuffle : new boolean[] {false, true}) {
      List<Batch> batches = d.batchList(batchSize, shuffle, 42);
      assertThat(batches).hasSize(expectedBatches);
      assertThat(d.numBatches(batchSize)).isEqualTo(expectedBatches);
      List<Integer> seen = new ArrayList<>();
      for (int i = 0; i < batches.size(); i++) {
        Batch b = batches.get(i);
        assertThat(b.size()).isEqualTo(i < batches.size() - 1 ? batchSize : n - batchSize * i);
        assertThat(b.x().shape()).isEqualTo(Shape.of(b.size(), 3));
        Arrays.stream(ids(b, 2)).forEach(seen::add);
      }
      if (!shuffle) {
        assertThat(seen).isSorted();
      }
      assertThat(seen).containsExactlyInAnyOrderElementsOf(
          java.util.stream.IntStream.range(0, n).boxed().toList());
    }
  }

  @Test
  void batches_sameSeed_sameOrderAndReplayable() {
    Dataset d = toy(50, 4);
    Iterable<Batch> a = d.batches(7, true, 123);
    int[] first = concatIds(a);
    assertThat(concatIds(a)).as("second iterator replays").containsExactly(first);
    assertThat(concatIds(d.batches(7, true, 123))).containsExactly(first);
    assertThat(concatIds(d.batches(7, true, 124))).isNotEqualTo(first);
    int[] sorted = first.clone();
    Arrays.sort(sorted);
    assertThat(first).isNotEqualTo(sorted);
  }

  @Test
  void batches_featuresInSmallChunks_sameShuffledBatchesAsOneBuffer() {
    Dataset d = toy(37, 4);
    // 16-byte chunks: rows of 12 bytes straddle chunk boundaries.
    TensorBuilder chunked = TensorBuilder.allocate(d.features().dtype(), d.features().shape(), 4);
    byte[] all = new byte[(int) d.features().byteSize()];
    d.features().copyBytes(0, all, 0, all.length);
    chunked.putBytes(0, all, 0, all.length);
    Dataset c = new Dataset("chunked", chunked.build(), d.labels(), 4);

    List<Batch> expected = d.batchList(5, true, 9);
    List<Batch> actual = c.batchList(5, true, 9);

    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i).x()).isEqualTo(expected.get(i).x());
      assertThat(actual.get(i).y()).isEqualTo(expected.get(i).y());
    }
  }

  private static int[] concatIds(Iterable<Batch> batches) {
    return concatIds(batches, 4);
  }

  private static int[] concatIds(Iterable<Batch> batches, int classes) {
    List<Integer> out = new ArrayList<>();
    for (Batch b : batches) {
      Arrays.stream(ids(b, classes)).forEach(out::add);
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  @Test
  void batches_badSize_throws() {
    assertThatThrownBy(() -> toy(3, 2).batches(0, false, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batch size must be >= 1, got 0");
  }

  @Test
  void batches_exhausted_nextThrows() {
    var it = toy(2, 2).batches(5).iterator();
    it.next();
    assertThat(it.hasNext()).isFalse();
    assertThatThrownBy(it::next).isInstanceOf(java.util.NoSuchElementException.class);
  }

  @ParameterizedTest
  @CsvSource({"100,0.2,20", "101,0.2,21", "10,0.01,1", "10,0.99,10"})
  void split_fraction_ceilTestSizeDisjointCover(int n, double f, int nTest) {
    Dataset d = toy(n, 3);
    TrainTestSplit s = d.split(f, 9);
    assertThat(s.test().size()).isEqualTo(nTest);
    assertThat(s.train().size()).isEqualTo(n - nTest);
    int[] train = concatIds(s.train().batches(n), 3);
    int[] test = concatIds(s.test().batches(n), 3);
    assertThat(train).isSorted();
    assertThat(test).isSorted();
    List<Integer> all = new ArrayList<>();
    Arrays.stream(train).forEach(all::add);
    Arrays.stream(test).forEach(all::add);
    assertThat(all).containsExactlyInAnyOrderElementsOf(
        java.util.stream.IntStream.range(0, n).boxed().toList());
    assertThat(d.split(f, 9).test().labels()).isEqualTo(s.test().labels());
    assertThat(s.train().name()).isEqualTo("toy/train");
  }

  @ParameterizedTest
  @CsvSource({"0", "1", "-0.5", "NaN"})
  void split_badFraction_throws(double f) {
    assertThatThrownBy(() -> toy(10, 2).split(f, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("test fraction must be in (0, 1)");
  }

  @Test
  void stratifiedSplit_unbalancedClasses_keepsProportionsPerClass() {
    // 60 of class 0, 30 of class 1, 10 of class 2.
    int[] y = new int[100];
    for (int i = 0; i < 100; i++) {
      y[i] = i < 60 ? 0 : i < 90 ? 1 : 2;
    }
    Dataset d = Dataset.fromArrays("u", new float[100], new long[] {1}, y, 3);
    TrainTestSplit s = d.stratifiedSplit(0.25, 5);
    assertThat(s.test().labelCounts()).containsExactly(15, 8, 3); // 7.5 and 2.5 round up
    assertThat(s.train().labelCounts()).containsExactly(45, 22, 7);
    assertThat(d.stratifiedSplit(0.25, 5).test().features())
        .isEqualTo(s.test().features());
  }

  @Test
  void subset_indices_gathersRowsInOrder() {
    Dataset d = toy(10, 3);
    Dataset s = d.subset("s", new int[] {7, 2, 2, 9});
    assertThat(ids(s.batches(10).iterator().next(), 3)).containsExactly(7, 2, 2, 9);
    assertThat(s.numClasses()).isEqualTo(3);
    assertThatThrownBy(() -> d.subset("bad", new int[] {10}))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void concat_parts_joinsInOrder() {
    Dataset d = toy(10, 2);
    Dataset c = Dataset.concat("c", List.of(d.subset("a", new int[] {3, 4}),
        d.subset("b", new int[0]), d.subset("b", new int[] {0})));
    assertThat(ids(c.batches(10).iterator().next(), 2)).containsExactly(3, 4, 0);
    Dataset other = Dataset.fromArrays("o", new float[2], new long[] {2}, new int[] {0}, 2);
    assertThatThrownBy(() -> Dataset.concat("c", List.of(d, other)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("example shape or class count differs");
  }

  @Test
  void accessors_imageShapedFeatures_reportShapesAndSpec() {
    Dataset d = Dataset.fromArrays("img", new float[2 * 4 * 3], new long[] {4, 3},
        new int[] {1, 0}, 2);
    assertThat(d.exampleShape()).containsExactly(4, 3);
    assertThat(d.featuresPerExample()).isEqualTo(12);
    assertThat(d.elementSpec()).isEqualTo("<x=float32[?,4,3],y=int64[?]>");
    assertThat(toy(3, 2).elementSpec()).isEqualTo("<x=float32[?,3],y=int64[?]>");
    assertThat(d.labelArray()).containsExactly(1, 0);
    assertThat(d.label(0)).isEqualTo(1);
    assertThat(d.labelCounts()).containsExactly(1, 1);
    assertThat(d.withName("z").name()).isEqualTo("z");
    assertThat(d.toString()).isEqualTo("Dataset[img: 2 x [4, 3], 2 classes]");
  }

  @Test
  void fromArrays_wrongLength_throws() {
    assertThatThrownBy(() -> Dataset.fromArrays("f", new float[5], new long[] {3}, new int[2], 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("5 feature values do not fill [2,3]");
  }

  @Test
  void batch_mismatchedCounts_throws() {
    assertThatThrownBy(() -> new Batch(Tensor.ofFloats(Shape.of(2, 1), 1, 2),
        Tensor.ofLongs(Shape.of(1), 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("x has 2 examples but y has 1");
  }
}
