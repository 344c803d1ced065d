package io.tributary.flower.passes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tributary.core.values.StructValue;
import io.tributary.flower.Scalar;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.server.internal.ClientManager;
import io.tributary.flower.server.internal.ModelSpec;
import io.tributary.flower.server.internal.ParameterCodec;
import io.tributary.flower.server.internal.RemoteClientWork;
import io.tributary.learning.AlgorithmRegistry;
import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.LearningProcess;
import io.tributary.privacy.aggregation.DpAggregator;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpNoise;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.SecureSummation;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A node rebuilds the process the server runs from the spec the server sends, and refuses a
 * rebuild whose fingerprint is not the server's.
 */
class NodeComputationTest {
  private static final long MAX_EXAMPLES = 1_000_000;
  private static final List<Tensor> MODEL = List.of(
      Tensor.ofFloats(Shape.of(3), new float[] {1, 2, 3}), Tensor.scalar(0.5f));
  private static final Context CONTEXT = new Context(7, 42, Map.of(), Map.of(),
      RecordDict.empty());

  /** The process the server builds for {@code algorithm}, as its round runner does. */
  static LearningProcess serverProcess(FederatedAlgorithm algorithm) {
    ModelSpec spec = ModelSpec.of(MODEL);
    RemoteClientWork work = new RemoteClientWork(new ClientManager(),
        new ParameterCodec(SerializerRegistry.load(), spec), Optional.empty(), MAX_EXAMPLES,
        algorithm.aggregator().create(spec.type()).clientSignals());
    return algorithm.process(RemoteClientWork.initialize(spec, MODEL), work.fit(),
        work.evaluation());
  }

  /** The spec the server sends, through a config record's values as a Fleet node reads them. */
  static ComputationSpec sent(FederatedAlgorithm algorithm) throws Exception {
    LearningProcess server = serverProcess(algorithm);
    ComputationSpec spec = ComputationSpec.of(algorithm, ModelSpec.of(MODEL).type(),
        MAX_EXAMPLES, ComputationFingerprint.of(server));
    return ComputationSpec.fromConfig(recordValues(spec.toConfig()));
  }

  static Map<String, Object> recordValues(Map<String, Scalar> config) {
    Map<String, Object> out = new LinkedHashMap<>();
    config.forEach((k, v) -> out.put(k, switch (v) {
      case Scalar.Double d -> d.value();
      case Scalar.Int i -> i.value();
      case Scalar.Bool b -> b.value();
      case Scalar.Str s -> s.value();
      default -> throw new AssertionError(v);
    }));
    return out;
  }

  /** A ClientApp that adds 1 to every array and reports 4 examples and a loss of 0.25. */
  static ClientApp plusOne() {
    return ClientApp.builder().train((m, c) -> {
      Map<String, Tensor> out = new LinkedHashMap<>();
      ((ArrayRecord) m.content().get("arrays")).toTensors().forEach((k, t) -> {
        float[] v = new float[(int) t.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = (float) t.getAsDouble(i) + 1;
        }
        out.put(k, Tensor.ofFloats(t.shape(), v));
      });
      return m.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(out), "metrics",
          new MetricRecord(Map.of("num-examples", 4L, "loss", 0.25))));
    }).evaluate((m, c) -> m.reply(RecordDict.of("metrics",
        new MetricRecord(Map.of("num-examples", 4L, "loss", 0.5))))).build();
  }

  private static DpAggregator clientDp() {
    return new DpAggregator(DpMode.CLIENT, 0, 1.0, 2, Optional.empty(), 0,
        DpNoise.seededForExperimentsOnlyNotPrivate(1));
  }

  @Test
  void rebuild_registeredAlgorithmWithHyperparameters_isTheServersComputation()
      throws Exception {
    FederatedAlgorithm adam = FederatedAlgorithm.named("fedadam", Map.of("eta", 0.05));
    ComputationSpec spec = sent(adam);

    LearningProcess rebuilt = NodeComputation.builder().build().rebuild(spec,
        Map.of("server_round", Scalar.of(1L)), Map.of(), plusOne(), CONTEXT);

    LearningProcess server = serverProcess(adam);
    assertThat(spec.registered()).isTrue();
    assertThat(spec.hyperparameters()).containsEntry("eta", 0.05).containsKeys("beta_1",
        "beta_2", "tau");
    assertThat(ComputationFingerprint.of(rebuilt)).isEqualTo(spec.fingerprint());
    // Equal but for the Java functions' bodies, which are the node's own.
    assertThat(rebuilt.next().print()).isEqualTo(server.next().print());
    assertThat(rebuilt.evaluate().print()).isEqualTo(server.evaluate().print());
    assertThat(rebuilt.next().type()).isEqualTo(server.next().type());
  }

  /**
   * A node whose registry builds "fedadam" otherwise than the server's (another version of it)
   * rebuilds another computation, and says so with both fingerprints.
   */
  @Test
  void rebuild_nodeRegistryBuildsTheNameOtherwise_refusedNamingBothFingerprints()
      throws Exception {
    ComputationSpec spec = sent(FederatedAlgorithm.named("fedadam", Map.of("eta", 0.05)));
    AlgorithmSpec plainAdam = new AlgorithmSpec() {
      @Override
      public String name() {
        return "fedadam";
      }

      @Override
      public String description() {
        return "fedavg under fedadam's name";
      }

      @Override
      public List<Hyperparameter> hyperparameters() {
        return AlgorithmRegistry.installed().spec("fedadam").hyperparameters();
      }

      @Override
      public FederatedAlgorithm build(Map<String, Double> values) {
        return FederatedAlgorithm.fedAvg().withName("fedadam");
      }
    };
    NodeComputation node = NodeComputation.builder()
        .registry(AlgorithmRegistry.of(List.of(plainAdam))).build();
    ComputationFingerprint plain = ComputationFingerprint.of(serverProcess(
        FederatedAlgorithm.fedAvg().withName("fedadam")));

    assertThatThrownBy(() -> node.rebuild(spec, Map.of(), Map.of(), plusOne(), CONTEXT))
        .isInstanceOfSatisfying(FingerprintMismatchException.class, e -> {
          assertThat(e.expected()).isEqualTo(spec.fingerprint());
          assertThat(e.actual()).isEqualTo(plain).isNotEqualTo(spec.fingerprint());
          assertThat(e.getMessage()).contains(spec.fingerprint().value(), plain.value());
        });
  }

  @Test
  void rebuild_dpWithSecureSumComposedInCodeOnBothSides_isTheServersComputation()
      throws Exception {
    FederatedAlgorithm secure = FederatedAlgorithm.fedAvg()
        .withAggregator(clientDp().withSecureSum(16)).withName("fedavg-dp-secure");
    ComputationSpec spec = sent(secure);

    LearningProcess rebuilt = NodeComputation.builder().algorithm(secure).build().rebuild(
        spec, Map.of(), Map.of(), plusOne(), CONTEXT);

    assertThat(spec.registered()).isFalse();
    assertThat(SecureSummation.intrinsicsIn(rebuilt.next()))
        .contains("federated_secure_sum_bitwidth");
    assertThat(ComputationFingerprint.of(rebuilt)).isEqualTo(spec.fingerprint());
  }

  @Test
  void rebuild_composedWithAnotherBitwidth_refusedAsAnotherComputation() throws Exception {
    ComputationSpec spec = sent(FederatedAlgorithm.fedAvg()
        .withAggregator(clientDp().withSecureSum(16)).withName("fedavg-dp-secure"));
    NodeComputation node = NodeComputation.builder().algorithm(FederatedAlgorithm.fedAvg()
        .withAggregator(clientDp().withSecureSum(12)).withName("fedavg-dp-secure")).build();

    assertThatThrownBy(() -> node.rebuild(spec, Map.of(), Map.of(), plusOne(), CONTEXT))
        .isInstanceOf(FingerprintMismatchException.class)
        .hasMessageContaining("fedavg-dp-secure");
  }

  @Test
  void rebuild_composedAlgorithmTheNodeDoesNotHold_refusedNamingTheKey() throws Exception {
    ComputationSpec spec = sent(FederatedAlgorithm.fedAvg()
        .withAggregator(clientDp().withSecureSum(16)).withName("fedavg-dp-secure"));

    assertThatThrownBy(() -> NodeComputation.builder().build().rebuild(spec, Map.of(),
        Map.of(), plusOne(), CONTEXT)).isInstanceOfSatisfying(ComputationSpecException.class,
            e -> {
              assertThat(e.key()).contains(ComputationSpec.ALGORITHM);
              assertThat(e.getMessage()).contains("no algorithm composed in code named "
                  + "'fedavg-dp-secure'");
            });
  }

  /**
   * The node runs the rebuilt round itself with its one client: flower_fit hands the model to
   * its ClientApp and the round's mean is the app's update.
   */
  @Test
  void rebuild_nextRunOnTheNode_trainsThroughItsClientApp() throws Exception {
    ComputationSpec spec = sent(FederatedAlgorithm.fedAvg());
    LearningProcess rebuilt = NodeComputation.builder().build().rebuild(spec,
        Map.of("server_round", Scalar.of(1L)), Map.of(), plusOne(), CONTEXT);

    StructValue state = StructValue.named("model", ModelSpec.of(MODEL).value(MODEL));
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      StructValue out = (StructValue) ctx.invoke(rebuilt.next(), state,
          List.of(RemoteClientWork.clientValue("node-42")));
      StructValue model = ((StructValue) out.get(0)).struct("model");
      assertThat(((Tensor) model.get(0)).getAsDouble(2)).isCloseTo(4, within(1e-6));
      assertThat(((Tensor) model.get(1)).getAsDouble(0)).isCloseTo(1.5, within(1e-6));
      assertThat(((StructValue) out.get(1)).tensor("num_examples").getLong(0)).isEqualTo(4);
    }
  }

  /**
   * A hostile server's model type of 2^40 elements is only a type: rebuilding over it allocates
   * nothing of its size, and the fingerprint (the server's, of a small model) refuses it.
   */
  @Test
  void rebuild_hugeModelTypeFromTheServer_refusedWithoutAllocatingIt() throws Exception {
    for (String name : List.of("fedavg", "fedadam", "fedyogi", "fedavgm")) {
      ComputationSpec small = sent(FederatedAlgorithm.named(name));
      ComputationSpec huge = new ComputationSpec(small.algorithm(), true,
          small.hyperparameters(), (io.tributary.core.types.StructType)
              io.tributary.core.types.Types.parse("<float32[1048576,1048576]>"),
          small.maxExamples(), small.fingerprint());

      assertThatThrownBy(() -> NodeComputation.builder().build().rebuild(huge, Map.of(),
          Map.of(), plusOne(), CONTEXT)).as(name)
          .isInstanceOf(FingerprintMismatchException.class);
    }
  }

  @Test
  void advertisedBy_appAnswersTheCapabilityQueryWithTheProtocolVersion() {
    ClientApp app = NodeComputation.builder().build().advertisedBy(plusOne());

    assertThat(app.capabilities()).isPresent();
    assertThat(ClientPasses.read(app.capabilities().get().properties()))
        .isEqualTo(new ClientPasses.Support.Capable(ClientPasses.PROTOCOL_VERSION));
  }
}
