package io.tributary.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RuntimeOptions#withPassEngine}: an engine whose workers replay the invocation with
 * {@link ExecutionContext#computePassPart} over random ranges of groups gives results
 * bit-identical to a local run, and the driver refuses parts that are malformed.
 */
class PassEngineTest {
  private static final int SIZE = 48;
  private static final int CLIENTS = 700;
  private static final long SEED = 11;

  /**
   * An in-process engine: splits the groups into {@code parts} random consecutive ranges
   * (possibly empty) and has a fresh context with {@code workerOptions} compute each, returning
   * the parts shuffled, as a cluster might.
   */
  private static final class ReplayingEngine implements PassEngine {
    final int parts;
    final RuntimeOptions workerOptions;
    final Random random;
    final AtomicInteger passes = new AtomicInteger();
    /** Runs of consecutive parts combined on a worker before the driver sees them; 0: none. */
    final int combineInto;

    ReplayingEngine(int parts, RuntimeOptions workerOptions, long seed) {
      this(parts, workerOptions, seed, 0);
    }

    ReplayingEngine(int parts, RuntimeOptions workerOptions, long seed, int combineInto) {
      this.parts = parts;
      this.workerOptions = workerOptions;
      this.random = new Random(seed);
      this.combineInto = combineInto;
    }

    @Override
    public List<PassPart> run(PassRequest request) {
      passes.incrementAndGet();
      TreeSet<Integer> cuts = new TreeSet<>();
      while (cuts.size() < parts - 1) {
        cuts.add(random.nextInt(request.groups() + 1));
        if (request.groups() + 1 < parts && cuts.size() == request.groups() + 1) {
          break;
        }
      }
      List<Integer> bounds = new ArrayList<>();
      bounds.add(0);
      bounds.addAll(cuts);
      bounds.add(request.groups());
      List<PassPart> out = new ArrayList<>();
      for (int k = 0; k + 1 < bounds.size(); k++) {
        try (ExecutionContext worker = ExecutionContext.create(workerOptions)) {
          out.add(worker.computePassPart(request.computation(), request.arguments(),
              request.pass(), request.earlier(), bounds.get(k), bounds.get(k + 1)));
        }
      }
      if (combineInto > 0) {
        out = combine(request, out);
      }
      Collections.shuffle(out, random);
      return out;
    }

    /** The parts cut into {@code combineInto} runs, each combined by a fresh worker. */
    private List<PassPart> combine(PassRequest request, List<PassPart> computed) {
      List<PassPart> combined = new ArrayList<>();
      int runs = Math.min(combineInto, computed.size());
      for (int r = 0; r < runs; r++) {
        List<PassPart> run = new ArrayList<>(computed.subList(r * computed.size() / runs,
            (r + 1) * computed.size() / runs));
        // The worker sorts them itself, as after a shuffle.
        Collections.shuffle(run, random);
        try (ExecutionContext worker = ExecutionContext.create(workerOptions)) {
          combined.add(worker.combinePassParts(request.computation(), request.arguments(),
              request.pass(), request.earlier(), run));
        }
      }
      return combined;
    }
  }

  /** A replaying engine whose parts {@code tamper} changes before the driver sees them. */
  private record Tampering(PassEngine inner, UnaryOperator<List<PassPart>> tamper)
      implements PassEngine {
    @Override
    public List<PassPart> run(PassRequest request) {
      List<PassPart> parts = new ArrayList<>(inner.run(request));
      // Empty parts cover nothing; dropping them leaves the tampering to hit a real one.
      parts.removeIf(p -> p.toGroup() == p.fromGroup());
      parts.sort(java.util.Comparator.comparingLong(PassPart::fromGroup));
      return tamper.apply(parts);
    }
  }

  /** DeterminismTest's values: large parts cancel in pairs, so any order change shows. */
  private static Tensor update(long seed, int client) {
    return DeterminismTest.orderSensitive(seed, client, SIZE);
  }

  private static Tensor weight(long seed, int client) {
    return Tensor.ofFloats(Shape.scalar(),
        1 + new SplittableRandom(Seeds.derive(seed, client, 1)).nextInt(500));
  }

  private static Tensor longs(long seed, int client) {
    SplittableRandom r = new SplittableRandom(Seeds.derive(seed, client, 3));
    return Tensor.ofLongs(Shape.of(3), r.nextLong(), r.nextLong(), r.nextLong());
  }

  private static ClientValues updates(int clients) {
    return ClientValues.generate(clients, i -> update(SEED, i));
  }

  private static final String VEC = "float32[" + SIZE + "]";

  private static Computation plusVec() {
    return Federated.computation(Types.parse("<" + VEC + "," + VEC + ">"),
        p -> Intrinsics.genericPlus(p.get(0), p.get(1)));
  }

  private static Computation identityVec() {
    return Federated.computation(Types.parse(VEC), x -> x);
  }

  private static Computation absoluteDeviation() {
    return Federated.local("absolute_deviation", "(<" + VEC + "," + VEC + "> -> " + VEC + ")",
        x -> {
          StructValue s = (StructValue) x;
          Tensor v = (Tensor) s.get(0);
          Tensor m = (Tensor) s.get(1);
          float[] out = new float[SIZE];
          for (int i = 0; i < SIZE; i++) {
            // Not squared: these values reach 1e25, whose square float32 cannot hold.
            out[i] = Math.abs(v.getFloat(i) - m.getFloat(i));
          }
          return Tensor.ofFloats(Shape.of(SIZE), out);
        });
  }

  /** A computation and the arguments it is invoked on. */
  private record Case(Computation computation, Object... args) {}

  private static Case sum() {
    return new Case(Federated.computation(Types.parse("{" + VEC + "}@CLIENTS"),
        Intrinsics::federatedSum), updates(CLIENTS));
  }

  private static Case mean() {
    return new Case(Federated.computation(Types.parse("{" + VEC + "}@CLIENTS"),
        Intrinsics::federatedMean), updates(CLIENTS));
  }

  private static Case weightedMean() {
    return new Case(Federated.computation(Types.parse("{" + VEC + "}@CLIENTS"),
        Types.parse("{float32}@CLIENTS"), Intrinsics::federatedWeightedMean),
        updates(CLIENTS), ClientValues.generate(CLIENTS, i -> weight(SEED, i)));
  }

  private static Case aggregate() {
    return new Case(Federated.computation(Types.parse("{" + VEC + "}@CLIENTS"),
        x -> Intrinsics.federatedAggregate(x, Intrinsics.genericZero(Types.parse(VEC)),
            plusVec(), plusVec(), identityVec())), updates(CLIENTS));
  }

  /** Sum, mean, min and max of the same values: four aggregations in one pass. */
  private static Case severalInOnePass() {
    return new Case(Federated.computation(Types.parse("{" + VEC + "}@CLIENTS"),
        x -> Federated.struct(Intrinsics.federatedSum(x), Intrinsics.federatedMean(x),
            Intrinsics.federatedMin(x), Intrinsics.federatedMax(x))), updates(CLIENTS));
  }

  private static Case integerMinMaxAndSum() {
    return new Case(Federated.computation(Types.parse("{int64[3]}@CLIENTS"),
        x -> Federated.struct(Intrinsics.federatedSum(x), Intrinsics.federatedMin(x),
            Intrinsics.federatedMax(x))),
        ClientValues.generate(CLIENTS, i -> longs(SEED, i)));
  }

  private static Case structSum() {
    return new Case(Federated.computation(Types.parse("{<a=" + VEC + ",b=int64[3]>}@CLIENTS"),
        x -> Federated.struct(Intrinsics.federatedSum(x), Intrinsics.federatedMax(x))),
        ClientValues.generate(CLIENTS, i -> StructValue.named("a", update(SEED, i),
            "b", longs(SEED, i))));
  }

  /** A per-client result (collected) of a map over the clients' values and a broadcast. */
  private static Case broadcastAndMap() {
    return new Case(Federated.computation(Types.parse("{" + VEC + "}@CLIENTS"),
        Types.parse(VEC + "@SERVER"),
        (x, s) -> Intrinsics.federatedMap(plusVec(),
            Intrinsics.federatedZip(Federated.struct(x, Intrinsics.federatedBroadcast(s))))),
        updates(40), update(SEED + 1, 0));
  }

  /** The mean, broadcast, then the mean absolute deviation from it: the second pass needs it. */
  private static Case twoDependentPasses() {
    return new Case(Federated.computation(Types.parse("{" + VEC + "}@CLIENTS"), x -> {
      var m = Intrinsics.federatedMean(x);
      var dev = Intrinsics.federatedMap(absoluteDeviation(),
          Intrinsics.federatedZip(Federated.struct(x, Intrinsics.federatedBroadcast(m))));
      return Federated.struct(m, Intrinsics.federatedMean(dev));
    }), updates(CLIENTS));
  }

  /** Every aggregation to the edges in one pass, over edges whose clients interleave. */
  private static Case toEdges() {
    return new Case(Federated.computation(Types.parse("{" + VEC + "}@CLIENTS"),
        Types.parse("{float32}@CLIENTS"), (x, w) -> Federated.struct(
            Intrinsics.federatedSumFromEdges(Intrinsics.federatedSumToEdges(x)),
            Intrinsics.federatedMeanToEdges(x), Intrinsics.federatedWeightedMeanToEdges(x, w),
            Intrinsics.federatedMinToEdges(x), Intrinsics.federatedMaxToEdges(x),
            Intrinsics.federatedAggregateToEdges(x, Intrinsics.genericZero(Types.parse(VEC)),
                plusVec(), plusVec(), identityVec()))),
        updates(CLIENTS), ClientValues.generate(CLIENTS, i -> weight(SEED, i)));
  }

  private static Edges interleavedEdges() {
    int[] of = new int[CLIENTS];
    for (int c = 0; c < CLIENTS; c++) {
      of[c] = (c * 7) % 5;
    }
    return Edges.of(5, of);
  }

  private static Object local(RuntimeOptions options, Case c) {
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      return ctx.invoke(c.computation(), c.args());
    }
  }

  private static Outcome onEngine(RuntimeOptions options, PassEngine engine, Case c) {
    try (ExecutionContext ctx = ExecutionContext.create(options.withPassEngine(engine))) {
      return ctx.invokeWithReport(c.computation(), c.args());
    }
  }

  private static void assertBitIdentical(RuntimeOptions options, Case c, int passes) {
    Object expected = local(options.withThreads(2), c);
    for (int parts : new int[] {1, 2, 3, 8}) {
      for (int threads : new int[] {1, 2}) {
        ReplayingEngine engine = new ReplayingEngine(parts, options.withThreads(threads),
            31L * parts + threads);
        Outcome outcome = onEngine(options.withThreads(2), engine, c);
        assertThat(outcome.value()).as("%d parts, %d worker threads", parts, threads)
            .isEqualTo(expected);
        assertThat(engine.passes.get()).isEqualTo(passes);
      }
    }
    // A second stage on the workers: runs of parts combined into one or two before the driver.
    for (int parts : new int[] {3, 8}) {
      for (int combined : new int[] {1, 2}) {
        ReplayingEngine engine = new ReplayingEngine(parts, options.withThreads(1),
            97L * parts + combined, combined);
        assertThat(onEngine(options.withThreads(2), engine, c).value())
            .as("%d parts combined into %d", parts, combined).isEqualTo(expected);
      }
    }
  }

  private static final RuntimeOptions OPTIONS = RuntimeOptions.defaults().withSeed(SEED);

  @Test
  void aggregationsToEdges_replayedInRandomParts_areBitIdenticalToLocal() {
    assertBitIdentical(OPTIONS.withEdges(interleavedEdges()), toEdges(), 1);
  }

  @Test
  void sum_replayedInRandomParts_isBitIdenticalToLocal() {
    assertBitIdentical(OPTIONS, sum(), 1);
  }

  @Test
  void sum_differentOrder_changesTheBits() {
    // The premise: summing these values in another order (each cancelling pair now split
    // between groups) gives other bits.
    Object forward = local(OPTIONS, sum());
    Object reversed = local(OPTIONS, new Case(sum().computation(),
        ClientValues.generate(CLIENTS, i -> update(SEED, (i + 1) % CLIENTS))));
    assertThat(reversed).isNotEqualTo(forward);
  }

  @Test
  void weightedMeanInMemory_localTiledPath_isBitIdenticalToEngine() {
    // Values in memory take the local tiled kernel; the engine's workers stream them.
    List<Object> values = new ArrayList<>();
    List<Object> weights = new ArrayList<>();
    for (int i = 0; i < CLIENTS; i++) {
      values.add(update(SEED, i));
      weights.add(weight(SEED, i));
    }
    assertBitIdentical(OPTIONS, new Case(weightedMean().computation(), ClientValues.of(values),
        ClientValues.of(weights)), 1);
  }

  @Test
  void mean_replayedInRandomParts_isBitIdenticalToLocal() {
    assertBitIdentical(OPTIONS, mean(), 1);
  }

  @Test
  void weightedMean_replayedInRandomParts_isBitIdenticalToLocal() {
    assertBitIdentical(OPTIONS, weightedMean(), 1);
  }

  @Test
  void aggregate_replayedInRandomParts_isBitIdenticalToLocal() {
    assertBitIdentical(OPTIONS, aggregate(), 1);
  }

  @Test
  void sumMeanMinMax_inOnePass_isBitIdenticalToLocal() {
    assertBitIdentical(OPTIONS, severalInOnePass(), 1);
  }

  @Test
  void integerSumMinMax_replayed_isBitIdenticalToLocal() {
    assertBitIdentical(OPTIONS, integerMinMaxAndSum(), 1);
  }

  @Test
  void structValues_replayed_isBitIdenticalToLocal() {
    assertBitIdentical(OPTIONS, structSum(), 1);
  }

  @Test
  void broadcastAndMap_collectedPerClient_isBitIdenticalToLocal() {
    assertBitIdentical(OPTIONS, broadcastAndMap(), 1);
  }

  @Test
  void twoDependentPasses_secondReplaysTheFirstFromEarlier_isBitIdenticalToLocal() {
    assertBitIdentical(OPTIONS, twoDependentPasses(), 2);
  }

  /** Clients {@code 3, 10, 17, ...} throw. */
  private static Case failingSum(int clients) {
    return new Case(sum().computation(), ClientValues.generate(clients, i -> {
      if (i % 7 == 3) {
        throw new IllegalStateException("client " + i + " has no data");
      }
      return update(SEED, i);
    }));
  }

  @Test
  void clientFailures_tolerated_sameResultAndFailures() {
    RuntimeOptions options = OPTIONS.withMinSuccessFraction(0.5);
    Case c = failingSum(CLIENTS);
    assertBitIdentical(options, c, 1);
    Outcome local;
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      local = ctx.invokeWithReport(c.computation(), c.args());
    }
    Outcome remote = onEngine(options, new ReplayingEngine(3, options.withThreads(2), 5), c);
    assertThat(remote.report().failures()).isEqualTo(local.report().failures())
        .hasSize(CLIENTS / 7);
    assertThat(remote.report().failures().get(0).client()).isEqualTo(3);
  }

  @Test
  void clientFailures_strict_failsWithTheLowestClient() {
    Case c = failingSum(CLIENTS);
    assertThatThrownBy(() -> onEngine(OPTIONS,
        new ReplayingEngine(8, OPTIONS.withThreads(1), 5), c))
        .isInstanceOf(ClientFailureException.class)
        .satisfies(e -> assertThat(((ClientFailureException) e).failure().client())
            .isEqualTo(3));
  }

  @Test
  void workersStrictButDriverTolerant_partStoppedEarly_isRefused() {
    RuntimeOptions options = OPTIONS.withMinSuccessFraction(0.5);
    assertThatThrownBy(() -> onEngine(options, new ReplayingEngine(2, OPTIONS, 5),
        failingSum(CLIENTS)))
        .isInstanceOf(PassEngineException.class)
        .hasMessageContaining("stopped early");
  }

  @Test
  void clientFailures_tooMany_failsAsLocally() {
    RuntimeOptions options = OPTIONS.withMinSuccessFraction(0.9);
    Case c = failingSum(CLIENTS);
    assertThatThrownBy(() -> local(options, c))
        .isInstanceOf(TooManyClientFailuresException.class);
    assertThatThrownBy(() -> onEngine(options, new ReplayingEngine(3, options, 5), c))
        .isInstanceOf(TooManyClientFailuresException.class);
  }

  // ------------------------------------------------------------------ hostile parts

  private static void assertRefused(UnaryOperator<List<PassPart>> tamper, String message) {
    PassEngine engine = new Tampering(new ReplayingEngine(3, OPTIONS.withThreads(1), 7), tamper);
    assertThatThrownBy(() -> onEngine(OPTIONS, engine, sum()))
        .isInstanceOf(PassEngineException.class)
        .hasMessageContaining(message);
  }

  private static List<PassPart> withPayload(List<PassPart> parts, int k,
      UnaryOperator<byte[]> change) {
    List<PassPart> out = new ArrayList<>(parts);
    PassPart p = out.get(k);
    out.set(k, new PassPart(p.fromGroup(), p.toGroup(), change.apply(p.payload().clone())));
    return out;
  }

  @Test
  void truncatedPayload_isRefused() {
    assertRefused(parts -> withPayload(parts, 0,
        b -> java.util.Arrays.copyOf(b, b.length - 5)), "truncated");
  }

  @Test
  void wrongMagic_isRefused() {
    assertRefused(parts -> withPayload(parts, 0, b -> {
      b[0] = 'X';
      return b;
    }), "wrong magic");
  }

  @Test
  void wrongVersion_isRefused() {
    assertRefused(parts -> withPayload(parts, 0, b -> {
      b[4] = 9;
      return b;
    }), "version 9");
  }

  @Test
  void trailingBytes_areRefused() {
    assertRefused(parts -> withPayload(parts, 0, b -> java.util.Arrays.copyOf(b, b.length + 3)),
        "3 bytes follow the end");
  }

  @Test
  void overlappingParts_areRefused() {
    assertRefused(parts -> {
      List<PassPart> out = new ArrayList<>(parts);
      out.add(parts.get(parts.size() - 1));
      return out;
    }, "overlaps");
  }

  @Test
  void missingPart_isRefused() {
    assertRefused(parts -> {
      List<PassPart> out = new ArrayList<>(parts);
      out.removeIf(p -> p.toGroup() > p.fromGroup() && p.fromGroup() > 0);
      return out;
    }, "missing from the pass parts");
  }

  /** Payload layout: magic 4, version 1, from 8, to 8, complete 1, sinks 4, subtrees 4. */
  private static final int FIRST_SUBTREE = 4 + 1 + 8 + 8 + 1 + 4 + 4;

  @Test
  void subtreeOutsideTheTree_isRefused() {
    assertRefused(parts -> withPayload(parts, 0, b -> {
      java.nio.ByteBuffer.wrap(b).putLong(FIRST_SUBTREE + 4, 1_000_000L);
      return b;
    }), "holds subtree (");
  }

  @Test
  void hugeCount_isRefusedBeforeAllocating() {
    assertRefused(parts -> withPayload(parts, 0, b -> {
      java.nio.ByteBuffer.wrap(b).putInt(FIRST_SUBTREE - 4, Integer.MAX_VALUE);
      return b;
    }), "number of subtrees");
  }

  @Test
  void payloadForOtherGroups_isRefused() {
    assertRefused(parts -> withPayload(parts, 0, b -> {
      java.nio.ByteBuffer.wrap(b).putLong(5 + 8, 1L << 40);
      return b;
    }), "the payload is for groups");
  }

  @Test
  void engineThrows_invokeFailsWithIt() {
    PassEngineException thrown = new PassEngineException("the cluster is gone", null);
    PassEngine engine = request -> {
      throw thrown;
    };
    assertThatThrownBy(() -> onEngine(OPTIONS, engine, sum())).isSameAs(thrown);
  }

  @Test
  void engineThrowsOtherwise_invokeFailsWithPassEngineException() {
    PassEngine engine = request -> {
      throw new IllegalStateException("boom");
    };
    assertThatThrownBy(() -> onEngine(OPTIONS, engine, sum()))
        .isInstanceOf(PassEngineException.class).hasMessageContaining("boom");
  }

  @Test
  void secureSumWithHook_isRefused() {
    Computation c = Federated.computation(Types.parse("{int32}@CLIENTS"),
        x -> Intrinsics.federatedSecureSum(x, Federated.constant(TestValues.i32(10))));
    SecureSummation hook = request -> new long[request.maxInput().length];
    RuntimeOptions options = OPTIONS.withSecureSum(hook);
    assertThatThrownBy(() -> onEngine(options, new ReplayingEngine(2, options, 1),
        new Case(c, List.of(TestValues.i32(1), TestValues.i32(2)))))
        .isInstanceOf(PassEngineException.class)
        .hasMessageContaining("secure sums cannot run on a pass engine yet");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 5})
  void smallPopulations_replayed_isBitIdenticalToLocal(int clients) {
    Case c = new Case(Federated.computation(Types.parse("{" + VEC + "}@CLIENTS"),
        Intrinsics::federatedSum), updates(clients));
    assertBitIdentical(OPTIONS, c, 1);
  }

  @Test
  void edgesFollowingTheTree_theRequestCarriesTheirLevel() {
    // 700 clients: 350 groups of 2; edges of 128 clients are the nodes of level 6 (64 groups).
    Edges edges = Edges.contiguous(128, 128, 128, 128, 128, 60);
    assertThat(edges.treeLevel()).hasValue(6);
    List<PassRequest> seen = new ArrayList<>();
    ReplayingEngine inner = new ReplayingEngine(3, OPTIONS.withEdges(edges).withThreads(1), 3);
    PassEngine recording = request -> {
      seen.add(request);
      return inner.run(request);
    };
    assertThat(onEngine(OPTIONS.withEdges(edges), recording, toEdges()).value())
        .isEqualTo(local(OPTIONS.withEdges(edges), toEdges()));
    assertThat(seen).singleElement().satisfies(r -> {
      assertThat(r.edges()).contains(edges);
      assertThat(r.edgeLevel()).hasValue(6);
    });
    assertThat(Edges.even(CLIENTS, 5).treeLevel()).isEmpty();
    assertThat(interleavedEdges().treeLevel()).isEmpty();
  }

  @Test
  void combinePassParts_gapOrOverlap_isRefused() {
    Case c = sum();
    try (ExecutionContext worker = ExecutionContext.create(OPTIONS)) {
      List<Object> args = List.of(c.args());
      byte[] none = new byte[0];
      PassPart a = worker.computePassPart(c.computation(), args, 0, none, 0, 10);
      PassPart b = worker.computePassPart(c.computation(), args, 0, none, 12, 20);
      PassPart overlapping = worker.computePassPart(c.computation(), args, 0, none, 5, 12);
      assertThatThrownBy(() -> worker.combinePassParts(c.computation(), args, 0, none,
          List.of(a, b)))
          .isInstanceOf(PassEngineException.class)
          .hasMessageContaining("groups [10, 12) are missing");
      assertThatThrownBy(() -> worker.combinePassParts(c.computation(), args, 0, none,
          List.of(a, overlapping)))
          .isInstanceOf(PassEngineException.class)
          .hasMessageContaining("overlaps");
      assertThatThrownBy(() -> worker.combinePassParts(c.computation(), args, 0, none,
          List.of()))
          .isInstanceOf(PassEngineException.class)
          .hasMessageContaining("no pass parts");
      PassPart tampered = new PassPart(10, 12, new byte[] {'T', 'B', 'P', 'P', 1, 0});
      assertThatThrownBy(() -> worker.combinePassParts(c.computation(), args, 0, none,
          List.of(a, tampered)))
          .isInstanceOf(PassEngineException.class)
          .hasMessageContaining("truncated");
    }
  }

  @Test
  void combinePassParts_ofConsecutiveParts_equalsOnePartOfTheUnion() {
    Case c = sum();
    try (ExecutionContext worker = ExecutionContext.create(OPTIONS.withThreads(1))) {
      List<Object> args = List.of(c.args());
      byte[] none = new byte[0];
      PassPart whole = worker.computePassPart(c.computation(), args, 0, none, 3, 21);
      PassPart combined = worker.combinePassParts(c.computation(), args, 0, none, List.of(
          worker.computePassPart(c.computation(), args, 0, none, 9, 21),
          worker.computePassPart(c.computation(), args, 0, none, 3, 4),
          worker.computePassPart(c.computation(), args, 0, none, 4, 9)));
      assertThat(combined.fromGroup()).isEqualTo(3);
      assertThat(combined.toGroup()).isEqualTo(21);
      assertThat(combined.payload()).isEqualTo(whole.payload());
    }
  }

  @Test
  void computePassPart_noSuchPass_isRefused() {
    try (ExecutionContext worker = ExecutionContext.create(OPTIONS)) {
      Case c = sum();
      assertThatThrownBy(() -> worker.computePassPart(c.computation(), List.of(c.args()), 3,
          new byte[0], 0, 1))
          .isInstanceOf(PassEngineException.class)
          .hasMessageContaining("earlier pass results");
      assertThatThrownBy(() -> worker.computePassPart(c.computation(), List.of(c.args()), 0,
          new byte[0], 0, 100_000))
          .isInstanceOf(PassEngineException.class)
          .hasMessageContaining("not inside");
    }
  }
}
