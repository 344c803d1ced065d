package io.tributary.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.Types;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Whether a two-tier aggregation run through the edges gives the flat run's bits: it does for
 * sums whose edges follow the pass's reduction tree of single-client leaves and whose edge values
 * are not rounded (float64, integers), and equals it within rounding otherwise; and each edge's
 * aggregate is its clients' alone, bit for bit, for any split (docs/runtime.md).
 */
class TierBitsTest {
  private static final Computation FLAT_SUM = Federated.computation(
      Types.parse("{float64[3]}@CLIENTS"), Intrinsics::federatedSum);
  private static final Computation TIERED_SUM = Federated.computation(
      Types.parse("{float64[3]}@CLIENTS"),
      x -> Intrinsics.federatedSumFromEdges(Intrinsics.federatedSumToEdges(x)));

  private static Object run(RuntimeOptions options, Computation c, Object... args) {
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      return ctx.invoke(c, args);
    }
  }

  /** Values whose sum depends on the order: large ones that cancel, small ones absorbed. */
  private static List<Tensor> sensitive(int clients, long seed) {
    Random r = new Random(seed);
    List<Tensor> out = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      double[] v = new double[3];
      for (int i = 0; i < 3; i++) {
        v[i] = (r.nextBoolean() ? 1e16 : 1.0) * (r.nextDouble() - 0.5) + r.nextInt(3);
      }
      out.add(Tensor.ofDoubles(Shape.of(3), v));
    }
    return out;
  }

  private static double[] doubles(Object t) {
    Tensor x = (Tensor) t;
    double[] out = new double[(int) x.shape().size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = x.getAsDouble(i);
    }
    return out;
  }

  @Test
  void sumThroughEdges_edgesFollowTheReductionTreeOfSingleClientLeaves_isBitIdenticalToTheFlatSum() {
    int clients = 256; // 256 groups of 1 client
    Edges edges = Edges.even(clients, 16); // 16 groups each: nodes of level 4
    assertThat(edges.followsReductionTree()).isTrue();
    List<Tensor> data = sensitive(clients, 7);
    for (int threads : new int[] {1, 3}) {
      RuntimeOptions options = RuntimeOptions.defaults().withThreads(threads).withEdges(edges);
      Object flat = run(options, FLAT_SUM, data);
      Object tiered = run(options, TIERED_SUM, data);
      assertThat(doubles(tiered)).as("threads " + threads).containsExactly(doubles(flat));
    }
    // An uneven last edge is still one node of the tree: 10 groups of 1 client in edges of 4.
    Edges uneven = Edges.contiguous(4, 4, 2);
    assertThat(uneven.followsReductionTree()).isTrue();
    List<Tensor> ten = sensitive(10, 3);
    RuntimeOptions options = RuntimeOptions.defaults().withThreads(2).withEdges(uneven);
    assertThat(doubles(run(options, TIERED_SUM, ten)))
        .containsExactly(doubles(run(options, FLAT_SUM, ten)));
  }

  @Test
  void sumThroughEdges_flatLeavesOfSeveralClients_equalsTheFlatSumWithinRounding() {
    // 1024 clients: the flat pass folds groups of 4 one client after another, while each edge's
    // own tree takes every client as a leaf, so the association differs inside the groups.
    Edges edges = Edges.even(1024, 16);
    assertThat(edges.followsReductionTree()).isTrue();
    List<Tensor> data = sensitive(1024, 7);
    RuntimeOptions options = RuntimeOptions.defaults().withThreads(2).withEdges(edges);
    double[] a = doubles(run(options, FLAT_SUM, data));
    double[] b = doubles(run(options, TIERED_SUM, data));
    for (int i = 0; i < 3; i++) {
      assertThat(b[i]).isCloseTo(a[i], org.assertj.core.data.Offset.offset(1e16 * 1024 * 1e-15));
    }
  }

  /**
   * The property a deployment relies on: an edge's aggregate is the same aggregation run over
   * that edge's clients alone (as one edge), bit for bit, whatever the other edges, the
   * population's size or the thread count.
   */
  @Test
  void sumToEdges_anySplit_eachEdgeEqualsItsClientsAloneBitForBit() {
    Computation toEdges = Federated.computation(Types.parse("{float64[3]}@CLIENTS"),
        Intrinsics::federatedSumToEdges);
    Computation weighted = Federated.computation(Types.parse("{float32[3]}@CLIENTS"),
        Types.parse("{int64}@CLIENTS"), Intrinsics::federatedWeightedMeanToEdges);
    for (int[] sizes : new int[][] {{3, 3}, {5, 5, 5}, {1, 6, 2}, {3, 700, 297}}) {
      int n = java.util.Arrays.stream(sizes).sum();
      List<Tensor> data = sensitive(n, n);
      List<Tensor> floats = new ArrayList<>();
      List<Tensor> weights = new ArrayList<>();
      Random r = new Random(n);
      for (Tensor t : data) {
        floats.add(Tensor.ofFloats(Shape.of(3), (float) t.getAsDouble(0),
            (float) t.getAsDouble(1), (float) t.getAsDouble(2)));
        weights.add(Tensor.ofLongs(Shape.scalar(), 1_000_003L + r.nextInt(100_000)));
      }
      for (int threads : new int[] {1, 3}) {
        RuntimeOptions all = RuntimeOptions.defaults().withThreads(threads)
            .withEdges(Edges.contiguous(sizes));
        List<?> sums = (List<?>) run(all, toEdges, data);
        List<?> means = (List<?>) run(all, weighted, floats, weights);
        int first = 0;
        for (int e = 0; e < sizes.length; e++) {
          RuntimeOptions alone = RuntimeOptions.defaults().withThreads(2)
              .withEdges(Edges.contiguous(sizes[e]));
          int to = first + sizes[e];
          String what = java.util.Arrays.toString(sizes) + " edge " + e + " threads " + threads;
          assertThat(doubles(sums.get(e))).as(what).containsExactly(
              doubles(((List<?>) run(alone, toEdges, data.subList(first, to))).get(0)));
          assertThat(means.get(e)).as(what).isEqualTo(((List<?>) run(alone, weighted,
              floats.subList(first, to), weights.subList(first, to))).get(0));
          first = to;
        }
      }
    }
  }

  @Test
  void sumThroughEdges_edgesAcrossTheTree_differsInTheLastBitsOnly() {
    // Four clients, one per group: the flat tree adds (x0 + x1) + (x2 + x3), where both ones are
    // absorbed by 1e16 (0 in all); edges {0}, {1, 2}, {3} add (x0 + (x1 + x2)) + x3, where the
    // second one comes after the large values cancelled and is kept (1).
    Edges across = Edges.contiguous(1, 2, 1);
    assertThat(across.followsReductionTree()).isFalse();
    List<Tensor> data = List.of(vec(1e16), vec(1), vec(-1e16), vec(1));
    RuntimeOptions options = RuntimeOptions.defaults().withThreads(1).withEdges(across);
    double flat = doubles(run(options, FLAT_SUM, data))[0];
    double tiered = doubles(run(options, TIERED_SUM, data))[0];
    assertThat(flat).isEqualTo(0.0);
    assertThat(tiered).isEqualTo(1.0);
    // Measured on ordinary data: equal within rounding (relative to the magnitudes summed).
    List<Tensor> ordinary = sensitive(1000, 11);
    RuntimeOptions seven = RuntimeOptions.defaults().withThreads(2)
        .withEdges(Edges.even(1000, 7));
    double[] a = doubles(run(seven, FLAT_SUM, ordinary));
    double[] b = doubles(run(seven, TIERED_SUM, ordinary));
    for (int i = 0; i < 3; i++) {
      assertThat(b[i]).isCloseTo(a[i], org.assertj.core.data.Offset.offset(1e16 * 1000 * 1e-15));
    }
  }

  private static Tensor vec(double x) {
    return Tensor.ofDoubles(Shape.of(3), x, x, x);
  }

  @Test
  void integerSumThroughEdges_anyEdges_isExact() {
    Computation flat = Federated.computation(Types.parse("{int64}@CLIENTS"),
        Intrinsics::federatedSum);
    Computation tiered = Federated.computation(Types.parse("{int64}@CLIENTS"),
        x -> Intrinsics.federatedSumFromEdges(Intrinsics.federatedSumToEdges(x)));
    Random r = new Random(5);
    int[] of = new int[300];
    List<Tensor> data = new ArrayList<>();
    for (int c = 0; c < of.length; c++) {
      of[c] = r.nextInt(5);
      data.add(Tensor.ofLongs(Shape.scalar(), r.nextLong()));
    }
    RuntimeOptions options = RuntimeOptions.defaults().withThreads(2).withEdges(Edges.of(5, of));
    assertThat(run(options, tiered, data)).isEqualTo(run(options, flat, data));
  }

  @Test
  void float32MeanThroughEdges_equalsTheFlatMeanWithinRounding() {
    Computation flat = Federated.computation(Types.parse("{float32}@CLIENTS"),
        Intrinsics::federatedMean);
    Computation tiered = Federated.computation(Types.parse("{float32}@CLIENTS"), x -> {
      Value ones = Intrinsics.federatedMap(Federated.local("one", "(float32 -> float32)",
          v -> Tensor.scalar(1f)), x);
      return Intrinsics.federatedWeightedMeanFromEdges(Intrinsics.federatedMeanToEdges(x),
          Intrinsics.federatedSumToEdges(ones));
    });
    Random r = new Random(9);
    List<Tensor> data = new ArrayList<>();
    for (int c = 0; c < 1000; c++) {
      data.add(Tensor.scalar((float) r.nextGaussian()));
    }
    RuntimeOptions options = RuntimeOptions.defaults().withThreads(2)
        .withEdges(Edges.even(1000, 7));
    float a = ((Tensor) run(options, flat, data)).getFloat(0);
    float b = ((Tensor) run(options, tiered, data)).getFloat(0);
    assertThat(b).isCloseTo(a, org.assertj.core.data.Offset.offset(4 * Math.ulp(1f)));
  }

  @Test
  void twoTierComputation_withEdgesSet_keepsItsBits() {
    List<Tensor> data = sensitive(600, 13);
    Object without = run(RuntimeOptions.defaults().withThreads(2), FLAT_SUM, data);
    Object with = run(RuntimeOptions.defaults().withThreads(2)
        .withEdges(Edges.even(600, 5)), FLAT_SUM, data);
    assertThat(doubles(with)).containsExactly(doubles(without));
  }
}
