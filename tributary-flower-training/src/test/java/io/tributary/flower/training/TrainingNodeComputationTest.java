package io.tributary.flower.training;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.values.StructValue;
import io.tributary.data.Digits;
import io.tributary.data.TrainTestSplit;
import io.tributary.flower.Scalar;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.app.TrainingClientApp;
import io.tributary.flower.passes.ClientPasses;
import io.tributary.flower.passes.ComputationFingerprint;
import io.tributary.flower.passes.ComputationSpec;
import io.tributary.flower.passes.NodeComputation;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.server.internal.ClientManager;
import io.tributary.flower.server.internal.ModelSpec;
import io.tributary.flower.server.internal.ParameterCodec;
import io.tributary.flower.server.internal.RemoteClientWork;
import io.tributary.graph.models.Models;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.LearningProcess;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A node whose ClientApp is the graph-backed training client rebuilds the server's FedProx
 * process from the spec the server sends and runs its round itself, training through the app.
 */
class TrainingNodeComputationTest {
  @Test
  void rebuild_fedProxOnATrainingClient_isTheServersAndTrainsOnTheNode() throws Exception {
    TrainTestSplit split = Digits.load(0.2, 1);
    TrainingClient client = new TrainingClient(
        Models.softmaxRegression("mclr", 64, 10, DType.FLOAT32), split.train(), split.test(),
        new TrainingSettings(1, 16, 0.05, 0, 3));
    List<Tensor> initial = client.getParameters(Map.of());
    FederatedAlgorithm prox = FederatedAlgorithm.named("fedprox", Map.of("proximal_mu", 0.1));
    ModelSpec model = ModelSpec.of(initial);
    RemoteClientWork server = new RemoteClientWork(new ClientManager(),
        new ParameterCodec(SerializerRegistry.load(), model), Optional.empty(), 1_000_000,
        prox.aggregator().create(model.type()).clientSignals());
    LearningProcess serverProcess = prox.process(RemoteClientWork.initialize(model, initial),
        server.fit(), server.evaluation());
    ComputationSpec spec = ComputationSpec.fromConfig(ComputationSpec.of(prox, model.type(),
        1_000_000, ComputationFingerprint.of(serverProcess)).toConfig());
    NodeComputation node = NodeComputation.builder().build();
    ClientApp app = node.advertisedBy(TrainingClientApp.of(client));
    Context context = new Context(3, 9, Map.of(), Map.of(), RecordDict.empty());

    LearningProcess rebuilt = node.rebuild(spec, Map.of("server_round", Scalar.of(1L),
        "proximal_mu", Scalar.of(0.1)), Map.of(), app, context);

    assertThat(ComputationFingerprint.of(rebuilt)).isEqualTo(spec.fingerprint());
    assertThat(ClientPasses.read(app.capabilities().orElseThrow().properties()))
        .isInstanceOf(ClientPasses.Support.Capable.class);
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      StructValue out = (StructValue) ctx.invoke(rebuilt.next(),
          StructValue.named("model", model.value(initial)),
          List.of(RemoteClientWork.clientValue("node-9")));
      List<Tensor> trained = ModelSpec.tensors(((StructValue) out.get(0)).struct("model"));
      assertThat(((StructValue) out.get(1)).tensor("num_examples").getLong(0))
          .isEqualTo(split.train().size());
      assertThat(trained.get(0)).isNotEqualTo(initial.get(0));
      assertThat(io.tributary.tensor.Finite.problem(trained, null)).isEmpty();
    }
  }
}
