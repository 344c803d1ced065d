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
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A pass replayed where each client is: {@link PassRequest#clientInputs} names all a node needs
 * (not the server's state), {@link ExecutionContext#computePassPart(Computation, PassInputs,
 * long, long)} replays from them alone bit for bit, and {@link PassEngine#runSecure} with
 * {@link ExecutionContext#computeClientPart} keeps every client's secure-sum input out of its
 * part while the pass's other aggregations keep exactly the clients the secure sum covers.
 *
 * <p>The protocol here sends inputs in the clear (a stand-in for the tests of the runtime's
 * side); tributary-privacy's tests run the same path with SecAgg+.
 */
class ClientPassTest {
  private static final int N = 4;
  private static final int BITS = 10;
  private static final String STATE = "<model=float32[" + N + "],moments=float32[" + N + "]>";

  private static Tensor floats(float... v) {
    return Tensor.ofFloats(Shape.of(v.length), v);
  }

  private static Computation pickModel() {
    return Federated.local("pick_model", "(" + STATE + " -> float32[" + N + "])",
        x -> ((StructValue) x).get(0));
  }

  /** The client's data plus the model, as a float update; data with a negative element throws. */
  private static Computation train() {
    return Federated.local("train", "(<int32[" + N + "],float32[" + N + "]> -> float32[" + N + "])",
        x -> {
          Tensor d = (Tensor) ((StructValue) x).get(0);
          Tensor m = (Tensor) ((StructValue) x).get(1);
          float[] out = new float[N];
          for (int i = 0; i < N; i++) {
            if (d.getInt(i) < 0) {
              throw new IllegalStateException("poisoned client data");
            }
            out[i] = d.getInt(i) * 0.37f + m.getFloat(i);
          }
          return floats(out);
        });
  }

  private static Computation quantize() {
    return Federated.local("quantize", "(float32[" + N + "] -> int32[" + N + "])", x -> {
      Tensor t = (Tensor) x;
      int[] q = new int[N];
      for (int i = 0; i < N; i++) {
        q[i] = Math.floorMod((int) (t.getFloat(i) * 3), 1 << BITS);
      }
      return Tensor.ofInts(Shape.of(N), q);
    });
  }

  private static Computation applyToMoments() {
    return Federated.local("server_update", "(<" + STATE + ",int32[" + N + "]> -> " + STATE + ")",
        x -> {
          StructValue s = (StructValue) ((StructValue) x).get(0);
          Tensor sum = (Tensor) ((StructValue) x).get(1);
          Tensor moments = (Tensor) s.get(1);
          float[] m = new float[N];
          for (int i = 0; i < N; i++) {
            m[i] = moments.getFloat(i) * 0.9f + sum.getInt(i);
          }
          return StructValue.named("model", s.get(0), "moments", floats(m));
        });
  }

  /**
   * A round: the server broadcasts the model (not the moments), the clients train and quantize,
   * a secure sum and a weighted mean in one pass, the server updates its moments from the sum.
   */
  private static Computation round() {
    return Federated.computation(Types.parse(STATE + "@SERVER"),
        Types.parse("{int32[" + N + "]}@CLIENTS"), (state, data) -> {
          var model = Intrinsics.federatedBroadcast(Intrinsics.federatedApply(pickModel(), state));
          var update = Intrinsics.federatedMap(train(),
              Intrinsics.federatedZip(Federated.struct(data, model)));
          var sum = Intrinsics.federatedSecureSumBitwidth(
              Intrinsics.federatedMap(quantize(), update),
              Federated.constant(Tensor.ofInts(Shape.scalar(), BITS)));
          var mean = Intrinsics.federatedMean(update);
          var next = Intrinsics.federatedApply(applyToMoments(),
              Intrinsics.federatedZip(Federated.struct(state, sum)));
          return Federated.struct(sum, mean, next);
        });
  }

  private static StructValue state() {
    return StructValue.named("model", floats(0.5f, -1.25f, 2f, 0.125f),
        "moments", floats(1111f, 2222f, 3333f, 4444f));
  }

  private static List<Object> data(int clients, long seed, Set<Integer> poisoned) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Object> out = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int[] d = r.ints(N, 0, 100).toArray();
      if (poisoned.contains(c)) {
        d[0] = -1;
      }
      out.add(Tensor.ofInts(Shape.of(N), d));
    }
    return out;
  }

  private static byte[] encode(long[] v) {
    ByteBuffer b = ByteBuffer.allocate(8 * v.length);
    for (long x : v) {
      b.putLong(x);
    }
    return b.array();
  }

  private static long[] decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    long[] v = new long[bytes.length / 8];
    for (int i = 0; i < v.length; i++) {
      v[i] = b.getLong();
    }
    return v;
  }

  /** A plain sum standing in for the protocol, on the driver of a local run. */
  private static final SecureSummation PLAIN = request -> {
    long[] sum = new long[request.length()];
    for (long[] x : request.inputs()) {
      for (int i = 0; i < sum.length; i++) {
        sum[i] += x[i];
      }
    }
    return sum;
  };

  /**
   * An in-process engine whose nodes each replay one client from the pass's inputs alone; the
   * protocol's "server" sums what arrived, leaving out the inputs of {@code lost} clients.
   */
  private static final class NodeEngine implements PassEngine {
    final RuntimeOptions workerOptions;
    final Set<Integer> lost;
    final UnaryOperator<SecurePass> tamper;
    final List<PassInputs> inputsSeen = new ArrayList<>();
    final List<byte[]> sentSeen = new ArrayList<>();

    NodeEngine(RuntimeOptions workerOptions, Set<Integer> lost, UnaryOperator<SecurePass> tamper) {
      this.workerOptions = workerOptions;
      this.lost = lost;
      this.tamper = tamper;
    }

    @Override
    public boolean runsSecureSums() {
      return true;
    }

    @Override
    public List<PassPart> run(PassRequest request) {
      PassInputs inputs = request.clientInputs();
      inputsSeen.add(inputs);
      List<PassPart> parts = new ArrayList<>();
      try (ExecutionContext node = ExecutionContext.create(workerOptions)) {
        for (int g = 0; g < request.groups(); g++) {
          parts.add(node.computePassPart(request.computation(), inputs, g, g + 1));
        }
      }
      return parts;
    }

    @Override
    public SecurePass runSecure(PassRequest request, SecureSumSpec spec) {
      PassInputs inputs = request.clientInputs();
      inputsSeen.add(inputs);
      List<PassPart> parts = new ArrayList<>();
      long[] sum = new long[spec.length()];
      List<Integer> survivors = new ArrayList<>();
      try (ExecutionContext node = ExecutionContext.create(workerOptions)) {
        for (int c = 0; c < request.clients(); c++) {
          // Each node is given its own client's data only.
          ClientPassPart p = node.computeClientPart(request.computation(),
              inputs.forClients(c, c + 1), c, in -> encode(in.values()));
          parts.add(p.part());
          if (p.sent().isPresent()) {
            sentSeen.add(p.sent().get());
            if (!lost.contains(c)) {
              long[] x = decode(p.sent().get());
              for (int i = 0; i < sum.length; i++) {
                sum[i] += x[i];
              }
              survivors.add(c);
            }
          }
        }
      }
      return tamper.apply(new SecurePass(parts, sum,
          survivors.stream().mapToInt(Integer::intValue).toArray()));
    }
  }

  private static RuntimeOptions options(double minSuccess) {
    return RuntimeOptions.defaults().withThreads(2).withMinSuccessFraction(minSuccess);
  }

  private static Outcome onNodes(NodeEngine engine, double minSuccess, List<Object> data) {
    try (ExecutionContext ctx = ExecutionContext.create(options(minSuccess)
        .withPassEngine(engine))) {
      return ctx.invokeWithReport(round(), state(), data);
    }
  }

  private static Outcome local(double minSuccess, List<Object> data) {
    try (ExecutionContext ctx = ExecutionContext.create(options(minSuccess)
        .withSecureSum(PLAIN))) {
      return ctx.invokeWithReport(round(), state(), data);
    }
  }

  @Test
  void runSecure_everyClientSurvives_equalsTheLocalRunBitForBit() {
    List<Object> data = data(9, 3, Set.of());
    NodeEngine engine = new NodeEngine(options(1.0), Set.of(), p -> p);

    Outcome nodes = onNodes(engine, 1.0, data);

    assertThat(nodes.value()).isEqualTo(local(1.0, data).value());
    assertThat(engine.sentSeen).hasSize(9);
  }

  @Test
  void runSecure_inputsLost_areFailedClientsOfEveryAggregation() {
    List<Object> data = data(12, 5, Set.of());
    NodeEngine engine = new NodeEngine(options(0.5), Set.of(2, 7), p -> p);

    Outcome nodes = onNodes(engine, 0.5, data);
    Outcome failed = local(0.5, data(12, 5, Set.of(2, 7)));

    // The mean too is over the ten survivors: the same bits as a local run where 2 and 7 failed.
    assertThat(nodes.value()).isEqualTo(failed.value());
    assertThat(nodes.report().failures()).extracting(ClientFailure::client)
        .containsExactly(2, 7);
    assertThat(nodes.report().failures()).extracting(ClientFailure::kind)
        .containsOnly(ClientFailure.Kind.DROPPED_OUT);
  }

  @Test
  void runSecure_clientFailsInItsWork_sendsNothingAndFailsAsLocally() {
    List<Object> data = data(8, 9, Set.of(4));
    NodeEngine engine = new NodeEngine(options(0.5), Set.of(), p -> p);

    Outcome nodes = onNodes(engine, 0.5, data);

    assertThat(nodes.value()).isEqualTo(local(0.5, data).value());
    assertThat(engine.sentSeen).hasSize(7);
    assertThat(nodes.report().failures()).singleElement()
        .satisfies(f -> assertThat(f.kind()).isEqualTo(ClientFailure.Kind.THREW));
  }

  @Test
  void computeClientPart_partHoldsNoSecureInput_onlyTheProtocolGetsIt() {
    List<Object> data = data(3, 1, Set.of());
    NodeEngine clear = new NodeEngine(options(1.0), Set.of(), p -> p);
    onNodes(clear, 1.0, data);
    PassInputs inputs = clear.inputsSeen.get(0);
    long[][] got = new long[1][];
    try (ExecutionContext node = ExecutionContext.create(options(1.0))) {
      ClientPassPart withProtocol = node.computeClientPart(round(), inputs, 1, in -> {
        got[0] = in.values();
        return new byte[] {1};
      });
      PassPart full = node.computePassPart(round(), inputs, 1, 2);

      // The plain part carries the client's quantized vector; the protocol's part does not.
      assertThat(withProtocol.part().payload().length).isLessThan(full.payload().length);
      assertThat(withProtocol.sent()).hasValueSatisfying(b -> assertThat(b).containsExactly(1));
      assertThat(got[0]).hasSize(N);
      for (long x : got[0]) {
        assertThat(x).isBetween(0L, (1L << BITS) - 1);
      }
    }
  }

  @Test
  void clientInputs_holdTheBroadcastModelButNotTheServerMoments() {
    List<Object> data = data(5, 2, Set.of());
    NodeEngine engine = new NodeEngine(options(1.0), Set.of(), p -> p);
    onNodes(engine, 1.0, data);

    PassInputs inputs = engine.inputsSeen.get(0);

    assertThat(inputs.serverValues()).containsExactly(state().get(0));
    assertThat(inputs.clientArguments()).containsExactly(data);
    assertThat(inputs.perClient()).containsExactly(0);
    List<Object> everything = new ArrayList<>(inputs.serverValues());
    everything.addAll(inputs.clientArguments());
    assertThat(everything).doesNotContain(state(), state().get(1));
  }

  @Test
  void forClients_holdsOnlyThoseClientsValues_andReplaysThemBitForBit() {
    List<Object> data = data(6, 2, Set.of());
    NodeEngine engine = new NodeEngine(options(1.0), Set.of(), p -> p);
    onNodes(engine, 1.0, data);
    PassInputs all = engine.inputsSeen.get(0);

    PassInputs mine = all.forClients(2, 4);

    ClientValues kept = (ClientValues) mine.clientArguments().get(0);
    assertThat(kept.size()).isEqualTo(6);
    assertThat(kept.get(3)).isEqualTo(data.get(3));
    assertThatThrownBy(() -> kept.get(1)).hasMessageContaining("client 1's value is not among");
    // Its clients keep their costs (their bytes), so a node starts them largest first.
    assertThat(kept.hasCosts()).isTrue();
    assertThat(kept.cost(3)).isPositive();
    assertThat(kept.cost(1)).isZero();
    try (ExecutionContext node = ExecutionContext.create(options(1.0))) {
      assertThat(node.computePassPart(round(), mine, 2, 4).payload())
          .isEqualTo(node.computePassPart(round(), all, 2, 4).payload());
    }
    assertThatThrownBy(() -> all.forClients(5, 7)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not inside the 6 clients");
  }

  @Test
  void encode_decodedOnANode_replaysTheSameBitsAndHoldsOnlyItsClients() {
    List<Object> data = data(6, 2, Set.of());
    NodeEngine engine = new NodeEngine(options(1.0), Set.of(), p -> p);
    onNodes(engine, 1.0, data);
    PassInputs all = engine.inputsSeen.get(0);

    PassInputs decoded = PassInputs.decode(all.encode(3, 4));

    assertThat(decoded.pass()).isEqualTo(0);
    assertThat(decoded.serverValues()).isEqualTo(all.serverValues());
    ClientValues kept = (ClientValues) decoded.clientArguments().get(0);
    assertThat(kept.size()).isEqualTo(6);
    assertThat(kept.get(3)).isEqualTo(data.get(3));
    assertThatThrownBy(() -> kept.get(0)).hasMessageContaining("not among the inputs");
    assertThat(kept.cost(3)).isEqualTo(((ClientValues) all.forClients(3, 4).clientArguments()
        .get(0)).cost(3)).isPositive();
    assertThat(kept.cost(0)).isZero();
    try (ExecutionContext node = ExecutionContext.create(options(1.0))) {
      assertThat(node.computePassPart(round(), decoded, 3, 4).payload())
          .isEqualTo(node.computePassPart(round(), all, 3, 4).payload());
    }
  }

  @Test
  void decode_malformedBytes_failTypedNamingWhat() {
    PassInputs all = new PassInputs(0, List.of(data(3, 1, Set.of())), List.of(0),
        List.of(state().get(0)));
    byte[] good = all.encode(0, 1);

    assertThatThrownBy(() -> PassInputs.decode(Arrays.copyOf(good, good.length - 3)))
        .isInstanceOf(PassEngineException.class).hasMessageContaining("pass inputs");
    byte[] hugeCount = good.clone();
    // The number of argument leaves, after the magic, version, pass and range.
    hugeCount[17] = 0x7f;
    assertThatThrownBy(() -> PassInputs.decode(hugeCount))
        .isInstanceOf(PassEngineException.class).hasMessageContaining("argument leaves");
    assertThatThrownBy(() -> PassInputs.decode(new byte[] {1, 2, 3}))
        .isInstanceOf(PassEngineException.class);
  }

  /** Two passes: the second broadcasts the first's mean, which is all it learns of the server. */
  private static Computation twoPasses() {
    return Federated.computation(Types.parse(STATE + "@SERVER"),
        Types.parse("{int32[" + N + "]}@CLIENTS"), (state, data) -> {
          var model = Intrinsics.federatedBroadcast(Intrinsics.federatedApply(pickModel(), state));
          var update = Intrinsics.federatedMap(train(),
              Intrinsics.federatedZip(Federated.struct(data, model)));
          var mean = Intrinsics.federatedMean(update);
          var again = Intrinsics.federatedMap(train(),
              Intrinsics.federatedZip(Federated.struct(data, Intrinsics.federatedBroadcast(mean))));
          return Federated.struct(mean, Intrinsics.federatedSum(again));
        });
  }

  /** Records every request and answers it with parts computed from everything. */
  private static final class Recording implements PassEngine {
    final List<PassRequest> requests = new ArrayList<>();
    final List<PassInputs> inputs = new ArrayList<>();
    final List<PassPart> parts = new ArrayList<>();

    @Override
    public List<PassPart> run(PassRequest request) {
      requests.add(request);
      inputs.add(request.clientInputs());
      try (ExecutionContext worker = ExecutionContext.create(options(1.0))) {
        PassPart p = worker.computePassPart(request.computation(), request.arguments(),
            request.pass(), request.earlier(), 0, request.groups());
        parts.add(p);
        return List.of(p);
      }
    }
  }

  @Test
  void computePassPart_fromInputsAlone_isBitIdenticalToTheReplayFromEverything() {
    List<Object> data = data(40, 8, Set.of());
    Recording engine = new Recording();
    Object viaEngine;
    try (ExecutionContext ctx = ExecutionContext.create(options(1.0).withPassEngine(engine))) {
      viaEngine = ctx.invoke(twoPasses(), state(), data);
    }
    try (ExecutionContext ctx = ExecutionContext.create(options(1.0))) {
      assertThat(viaEngine).isEqualTo(ctx.invoke(twoPasses(), state(), data));
    }
    assertThat(engine.requests).hasSize(2);
    // The second pass reads the first pass's mean, not the model nor the moments.
    assertThat(engine.inputs.get(1).serverValues()).singleElement()
        .isEqualTo(((StructValue) viaEngine).get(0));
    try (ExecutionContext node = ExecutionContext.create(options(1.0))) {
      for (int p = 0; p < 2; p++) {
        PassPart fromInputs = node.computePassPart(twoPasses(), engine.inputs.get(p), 0,
            engine.requests.get(p).groups());
        assertThat(fromInputs.payload()).isEqualTo(engine.parts.get(p).payload());
      }
    }
  }

  @Test
  void computePassPart_inputsMissingAServerValue_failsTypedNamingIt() {
    List<Object> data = data(3, 8, Set.of());
    Recording engine = new Recording();
    try (ExecutionContext ctx = ExecutionContext.create(options(1.0).withPassEngine(engine))) {
      ctx.invoke(twoPasses(), state(), data);
    }
    PassInputs full = engine.inputs.get(0);
    PassInputs none = new PassInputs(0, full.clientArguments(), full.perClient(), List.of());
    PassInputs wrongType = new PassInputs(0, full.clientArguments(), full.perClient(),
        List.of(Tensor.ofInts(Shape.of(N), 1, 2, 3, 4)));
    try (ExecutionContext node = ExecutionContext.create(options(1.0))) {
      assertThatThrownBy(() -> node.computePassPart(twoPasses(), none, 0, 1))
          .isInstanceOf(PassEngineException.class).hasMessageContaining("read 1 server values");
      assertThatThrownBy(() -> node.computePassPart(twoPasses(), wrongType, 0, 1))
          .isInstanceOf(PassEngineException.class).hasMessageContaining("does not fit");
    }
  }

  @Test
  void runSecure_moreClientsThanGroupsOfOne_isRefusedNamingWhy() {
    List<Object> data = data(600, 4, Set.of());
    NodeEngine engine = new NodeEngine(options(1.0), Set.of(), p -> p);

    assertThatThrownBy(() -> onNodes(engine, 1.0, data))
        .isInstanceOf(SecureSumException.class)
        .hasMessageContaining("one client per group")
        .hasMessageContaining("groups of 2");
  }

  @Test
  void computeClientPart_passOfGroupsOfTwo_isRefusedOnTheNodeToo() {
    List<Object> data = data(600, 4, Set.of());
    PassInputs inputs = new PassInputs(0, List.of(data), List.of(0), List.of(state().get(0)));
    try (ExecutionContext node = ExecutionContext.create(options(1.0))) {
      assertThatThrownBy(() -> node.computeClientPart(round(), inputs, 3, in -> new byte[0]))
          .isInstanceOf(SecureSumException.class).hasMessageContaining("groups of 2");
    }
  }

  @Test
  void runSecure_noClient_isTheSumOfNothingWithoutAProtocol() {
    Computation onlySecure = Federated.computation(Types.parse("{int32[" + N + "]}@CLIENTS"),
        x -> Intrinsics.federatedSecureSumBitwidth(x,
            Federated.constant(Tensor.ofInts(Shape.scalar(), BITS))));
    NodeEngine engine = new NodeEngine(options(1.0), Set.of(), p -> p);
    Object none;
    try (ExecutionContext ctx = ExecutionContext.create(options(1.0).withPassEngine(engine))) {
      none = ctx.invoke(onlySecure, List.of());
    }

    assertThat(none).isEqualTo(Tensor.ofInts(Shape.of(N), new int[N]));
    assertThat(engine.inputsSeen).isEmpty();
  }

  @Test
  void runSecure_survivorWithoutItsPart_isRefused() {
    List<Object> data = data(6, 4, Set.of());
    NodeEngine engine = new NodeEngine(options(0.5), Set.of(), p -> new SecurePass(
        p.parts().subList(1, p.parts().size()), p.sum(), p.survivors()));

    assertThatThrownBy(() -> onNodes(engine, 0.5, data))
        .isInstanceOf(SecureSumException.class)
        .hasMessageContaining("client 0 is among the survivors")
        .hasMessageContaining("did not arrive");
  }

  @Test
  void runSecure_partMissingAndInputMissing_isADroppedClient() {
    List<Object> data = data(6, 4, Set.of());
    NodeEngine engine = new NodeEngine(options(0.5), Set.of(0), p -> new SecurePass(
        p.parts().subList(1, p.parts().size()), p.sum(), p.survivors()));

    Outcome nodes = onNodes(engine, 0.5, data);

    assertThat(nodes.value()).isEqualTo(local(0.5, data(6, 4, Set.of(0))).value());
    assertThat(nodes.report().failures()).singleElement()
        .satisfies(f -> assertThat(f.message()).contains("pass part did not arrive"));
  }

  @Test
  void runSecure_partCarryingTheInputInTheClear_isRefusedAsMalformed() {
    List<Object> data = data(4, 4, Set.of());
    NodeEngine[] engine = new NodeEngine[1];
    engine[0] = new NodeEngine(options(1.0), Set.of(), p -> {
      List<PassPart> parts = new ArrayList<>(p.parts());
      try (ExecutionContext node = ExecutionContext.create(options(1.0))) {
        // A node that ignores the protocol: its part holds the quantized vector, summed plainly.
        parts.set(0, node.computePassPart(round(), engine[0].inputsSeen.get(0), 0, 1));
      }
      assertThat(parts.get(0).payload().length)
          .isGreaterThan(p.parts().get(0).payload().length);
      return new SecurePass(parts, p.sum(), p.survivors());
    });

    assertThatThrownBy(() -> onNodes(engine[0], 1.0, data))
        .isInstanceOf(PassEngineException.class).hasMessageContaining("pass part [0, 1)");
  }

  @Test
  void runSecure_sumOfTheWrongLength_isRefused() {
    List<Object> data = data(4, 4, Set.of());
    NodeEngine engine = new NodeEngine(options(1.0), Set.of(), p -> new SecurePass(p.parts(),
        new long[1], p.survivors()));

    assertThatThrownBy(() -> onNodes(engine, 1.0, data))
        .isInstanceOf(SecureSumException.class).hasMessageContaining("1 elements, expected 4");
  }

  @Test
  void runSecure_engineWithoutSecureSums_refusesTheSummationAsBefore() {
    PassEngine plain = request -> List.of();
    try (ExecutionContext ctx = ExecutionContext.create(options(1.0).withSecureSum(PLAIN)
        .withPassEngine(plain))) {
      assertThatThrownBy(() -> ctx.invoke(round(), state(), data(3, 1, Set.of())))
          .isInstanceOf(PassEngineException.class).hasMessageContaining("SecureSummation");
    }
  }
}
