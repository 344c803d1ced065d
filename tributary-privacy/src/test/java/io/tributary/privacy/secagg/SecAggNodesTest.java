package io.tributary.privacy.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.RoundOutput;
import io.tributary.learning.serveropt.AdaptiveServerOptimizer;
import io.tributary.privacy.aggregation.DpAggregator;
import io.tributary.privacy.aggregation.DpNoise;
import io.tributary.privacy.secagg.SecAggMessage.AdvertiseKeys;
import io.tributary.privacy.secagg.SecAggMessage.MaskedInput;
import io.tributary.privacy.secagg.SecAggMessage.ShareKeys;
import io.tributary.privacy.secagg.SecAggMessage.UnmaskShares;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ClientPassPart;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.PassEngine;
import io.tributary.runtime.PassInputs;
import io.tributary.runtime.PassPart;
import io.tributary.runtime.PassRequest;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.SecurePass;
import io.tributary.runtime.SecureSumSpec;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * DP-FedAvg with {@code DpAggregator.withSecureSum} run as a server would: each client's pass
 * replayed on its own node from the pass's client-side inputs alone, its secure-sum input
 * masked by its own {@link SecAggClient} and only the survivors' total unmasked by a
 * {@link SecAggServer}, equal bit for bit to the simulated run with SecAgg+ as the runtime's
 * {@code SecureSummation}, with clients that drop out of the protocol equal to clients that fail.
 */
class SecAggNodesTest {
  private static final int SIZE = 5;
  private static final int BITS = 12;
  private static final SecAggSettings SECAGG = SecAggSettings.of(6, 4, 16, 23);
  private static final StructType M = (StructType) Types.parse("<w=float32[" + SIZE + "]>");
  private static final StructType DATA = (StructType) Types.parse("<u=float32[" + SIZE + "]>");

  /** The client's update is its data; data whose first element is NaN makes the client throw. */
  private static Computation client() {
    return Federated.local("send_update", FunctionType.of(StructType.named("model", M,
        "data", DATA), Types.parse("<delta=" + M + ",num_examples=int64,loss=float32>")),
        arg -> {
          Tensor u = ((StructValue) arg).struct(1).tensor("u");
          if (Float.isNaN(u.getFloat(0))) {
            throw new IllegalStateException("this client fails");
          }
          return StructValue.named("delta", StructValue.named("w", u), "num_examples",
              Tensor.ofLongs(Shape.scalar(), 3), "loss", Tensor.scalar(u.getFloat(1)));
        });
  }

  private static Computation eval() {
    return Federated.local("no_eval", FunctionType.of(StructType.named("model", M, "data",
        DATA), Types.parse("<loss=float32,num_examples=int64>")),
        arg -> StructValue.named("loss", Tensor.scalar(0f), "num_examples",
            Tensor.ofLongs(Shape.scalar(), 1)));
  }

  private static Computation init() {
    return Federated.computation(() -> Intrinsics.federatedEval(
        Federated.local("start", FunctionType.noParameter(StructType.named("model", M)),
            x -> StructValue.named("model", StructValue.named("w",
                Tensor.ofFloats(Shape.of(SIZE), new float[SIZE])))), Placement.SERVER));
  }

  /** FedAdam (server moments) with client-side DP whose sums are secure. */
  private static LearningProcess process() {
    DpAggregator dp = DpAggregator.fixed(0.5, 1.0, 8, DpNoise.seededForExperimentsOnlyNotPrivate(5))
        .clientSide().withSecureSum(BITS);
    return FederatedAlgorithm.fedAvg().withServerOptimizer(AdaptiveServerOptimizer.fedAdam())
        .withAggregator(dp).process(init(), client(), eval());
  }

  private static List<Object> data(int clients, Set<Integer> failing) {
    SplittableRandom r = new SplittableRandom(77);
    List<Object> out = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      float[] u = new float[SIZE];
      for (int i = 0; i < SIZE; i++) {
        u[i] = (float) r.nextDouble(-0.4, 0.4);
      }
      if (failing.contains(c)) {
        u[0] = Float.NaN;
      }
      out.add(StructValue.named("u", Tensor.ofFloats(Shape.of(SIZE), u)));
    }
    return out;
  }

  /**
   * Nodes in this process: per pass with secure sums, one SecAgg+ round among the pass's
   * clients (keys exchanged first), each node replaying its client with its SecAggClient as the
   * runtime's client side; the server sees masked inputs and the survivors' total only.
   */
  private static final class SecAggNodes implements PassEngine {
    final Set<Integer> lost;
    final UnaryOperator<List<MaskedInput>> tamper;
    final List<PassInputs> inputs = new ArrayList<>();
    final List<SecAggTranscript> transcripts = new ArrayList<>();

    SecAggNodes(Set<Integer> lost, UnaryOperator<List<MaskedInput>> tamper) {
      this.lost = lost;
      this.tamper = tamper;
    }

    @Override
    public boolean runsSecureSums() {
      return true;
    }

    @Override
    public List<PassPart> run(PassRequest request) {
      PassInputs in = request.clientInputs();
      inputs.add(in);
      List<PassPart> parts = new ArrayList<>();
      try (ExecutionContext node = ExecutionContext.create(nodeOptions())) {
        for (int g = 0; g < request.groups(); g++) {
          parts.add(node.computePassPart(request.computation(), in, g, g + 1));
        }
      }
      return parts;
    }

    @Override
    public SecurePass runSecure(PassRequest request, SecureSumSpec spec) {
      PassInputs in = request.clientInputs();
      inputs.add(in);
      int n = spec.clients();
      SecAggSettings s = SecAggPlus.settingsFor(SECAGG, spec);
      SecAggServer server = new SecAggServer(n, spec.length(), s);
      List<SecAggClient> clients = new ArrayList<>();
      List<AdvertiseKeys> adverts = new ArrayList<>();
      for (int c = 0; c < n; c++) {
        clients.add(new SecAggClient(c, n, s));
        adverts.add(clients.get(c).advertiseKeys());
      }
      var directories = server.collectKeys(adverts);
      List<ShareKeys> shares = new ArrayList<>();
      for (SecAggClient c : clients) {
        shares.add(c.shareKeys(directories.get(c.id())));
      }
      var routed = server.collectShares(shares);
      List<PassPart> parts = new ArrayList<>();
      List<MaskedInput> masked = new ArrayList<>();
      try (ExecutionContext node = ExecutionContext.create(nodeOptions())) {
        for (int c = 0; c < n; c++) {
          // What the node receives: its own client's inputs, as bytes.
          PassInputs mine = PassInputs.decode(in.encode(c, c + 1));
          ClientPassPart p = node.computeClientPart(request.computation(), mine, c,
              SecAggPlus.secureSumClient(clients.get(c), routed.get(c)));
          parts.add(p.part());
          if (p.sent().isPresent() && !lost.contains(c)) {
            masked.add((MaskedInput) SecAggWire.decode(p.sent().get()));
          }
        }
      }
      Map<Integer, SecAggMessage.UnmaskRequest> asks =
          server.collectMaskedInputs(tamper.apply(masked));
      List<UnmaskShares> answers = new ArrayList<>();
      for (var e : asks.entrySet()) {
        answers.add(clients.get(e.getKey()).unmask(e.getValue()));
      }
      long[] sum = server.collectUnmaskShares(answers);
      transcripts.add(server.transcript());
      return new SecurePass(parts, sum,
          asks.keySet().stream().mapToInt(Integer::intValue).toArray());
    }
  }

  private static RuntimeOptions nodeOptions() {
    return RuntimeOptions.defaults().withThreads(2).withMinSuccessFraction(0.5);
  }

  private static List<RoundOutput> run(RuntimeOptions options, List<Object> clients, int rounds) {
    LearningProcess p = process();
    List<RoundOutput> outs = new ArrayList<>();
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      StructValue state = (StructValue) ctx.invoke(p.initialize());
      for (int r = 0; r < rounds; r++) {
        RoundOutput out = RoundOutput.of(ctx.invoke(p.next(), state, clients));
        outs.add(out);
        state = out.state();
      }
    }
    return outs;
  }

  private static List<RoundOutput> simulated(List<Object> clients, int rounds) {
    return run(nodeOptions().withSecureSum(SecAggPlus.secureSummation(SECAGG)), clients, rounds);
  }

  @Test
  void nodesWithSecAgg_everyClientStays_equalTheSimulatedRunBitForBit() {
    SecAggNodes nodes = new SecAggNodes(Set.of(), m -> m);

    List<RoundOutput> a = run(nodeOptions().withPassEngine(nodes), data(8, Set.of()), 2);
    List<RoundOutput> b = simulated(data(8, Set.of()), 2);

    for (int r = 0; r < 2; r++) {
      assertThat(a.get(r).state()).as("round %d", r + 1).isEqualTo(b.get(r).state());
    }
    // One SecAgg+ round per round's pass, covering both of DP's secure sums in one vector.
    assertThat(nodes.transcripts).hasSize(2);
    for (SecAggTranscript t : nodes.transcripts) {
      assertThat(t.maskedInputs()).hasSize(8);
      assertThat(t.sum()).isPresent();
    }
  }

  @Test
  void nodesWithSecAgg_clientsDropBeforeMasking_equalTheSimulatedRunWhereTheyFail() {
    SecAggNodes nodes = new SecAggNodes(Set.of(1, 5), m -> m);

    List<RoundOutput> a = run(nodeOptions().withPassEngine(nodes), data(8, Set.of()), 2);
    List<RoundOutput> b = simulated(data(8, Set.of(1, 5)), 2);

    for (int r = 0; r < 2; r++) {
      assertThat(a.get(r).state()).as("round %d", r + 1).isEqualTo(b.get(r).state());
    }
    assertThat(nodes.transcripts.get(0).contributors()).containsExactly(0, 2, 3, 4, 6, 7);
  }

  @Test
  void nodesWithSecAgg_clientFailsInItsTraining_masksNothingAndFailsAsSimulated() {
    SecAggNodes nodes = new SecAggNodes(Set.of(), m -> m);
    List<Object> clients = data(8, Set.of(3));

    List<RoundOutput> a = run(nodeOptions().withPassEngine(nodes), clients, 1);

    assertThat(a.get(0).state()).isEqualTo(simulated(clients, 1).get(0).state());
    assertThat(nodes.transcripts.get(0).maskedInputs()).hasSize(7);
  }

  @Test
  void clientInputs_holdTheModelButNotTheServerOptimizersMoments() {
    SecAggNodes nodes = new SecAggNodes(Set.of(), m -> m);
    List<RoundOutput> outs = run(nodeOptions().withPassEngine(nodes), data(8, Set.of()), 2);
    StructValue afterFirst = outs.get(0).state();
    List<Tensor> moments = new ArrayList<>();
    leaves(afterFirst.get("optimizer"), moments);
    // Adam's first and second moments, one element per weight (its step count is a scalar).
    moments.removeIf(t -> t.shape().size() != SIZE);
    assertThat(moments).hasSize(2);

    List<Tensor> learned = new ArrayList<>();
    for (Object v : nodes.inputs.get(1).serverValues()) {
      leaves(v, learned);
    }

    assertThat(learned).contains(outs.get(0).model().tensor("w"));
    for (Tensor m : moments) {
      assertThat(learned).doesNotContain(m);
    }
  }

  private static void leaves(Object v, List<Tensor> out) {
    if (v instanceof Tensor t) {
      out.add(t);
    } else if (v instanceof StructValue s) {
      s.values().forEach(x -> leaves(x, out));
    }
  }

  @Test
  void nodesWithSecAgg_maskedInputTampered_failsTypedWithoutASum() {
    SecAggNodes nodes = new SecAggNodes(Set.of(), m -> {
      List<MaskedInput> out = new ArrayList<>(m);
      MaskedInput first = out.get(0);
      out.set(0, new MaskedInput(first.client(), java.util.Arrays.copyOf(first.masked(),
          first.masked().length - 1)));
      return out;
    });

    assertThatThrownBy(() -> run(nodeOptions().withPassEngine(nodes), data(8, Set.of()), 1))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(SecAggException.Reason.MALFORMED_MESSAGE);
          assertThat(e.client()).hasValue(0);
        });
  }

  @Test
  void nodesWithSecAgg_tooManyMaskedInputsMissing_failsTypedWithoutASum() {
    SecAggNodes nodes = new SecAggNodes(Set.of(0, 1, 2, 3, 4), m -> m);

    assertThatThrownBy(() -> run(nodeOptions().withPassEngine(nodes), data(8, Set.of()), 1))
        .isInstanceOfSatisfying(SecAggException.class, e ->
            assertThat(e.reason()).isEqualTo(SecAggException.Reason.TOO_FEW_SURVIVORS));
  }

  @Test
  void failures_droppedClientsAreReportedAsDroppedOut() {
    SecAggNodes nodes = new SecAggNodes(Set.of(6), m -> m);
    LearningProcess p = process();
    try (ExecutionContext ctx = ExecutionContext.create(nodeOptions().withPassEngine(nodes))) {
      StructValue state = (StructValue) ctx.invoke(p.initialize());
      var outcome = ctx.invokeWithReport(p.next(), state, data(8, Set.of()));
      assertThat(outcome.report().failures()).extracting(ClientFailure::client)
          .containsExactly(6);
      assertThat(outcome.report().failures()).extracting(ClientFailure::kind)
          .containsOnly(ClientFailure.Kind.DROPPED_OUT);
    }
  }
}
