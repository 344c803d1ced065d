package io.tributary.graph.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.data.Synthetic;
import io.tributary.graph.Graph;
import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.autodiff.GradientGraph;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.graph.ops.GraphExecutor;
import io.tributary.graph.ops.NdArray;
import io.tributary.graph.optim.Optimizer;
import io.tributary.graph.optim.OptimizerState;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClientOptimizerTest {
  private static final Model MCLR = Models.mclr();
  private static final StructType TYPE = LocalTraining.modelType(MCLR);

  private static List<StructValue> batches() {
    List<StructValue> all = Sequences.of(Synthetic.fedProx(1, 1, 3).pooledTrain(), 10);
    return all.subList(0, 6);
  }

  private static StructValue run(ClientUpdateConfig config, Map<String, Tensor> params,
      List<StructValue> data) throws GraphBindingException {
    JavaFunction f = GraphBinder.standard().bind(
        LocalTraining.clientUpdate("client_update", MCLR, config));
    return (StructValue) f.body().apply(StructValue.named(
        "model", ModelStructs.toValue(TYPE, params), "data", data));
  }

  /** The same steps by hand: uncompiled gradients of the objective, then Optimizer.step. */
  private static Map<String, Tensor> byHand(ClientUpdateConfig config, Map<String, Tensor> global,
      List<StructValue> data) {
    Graph graph = config.mu() > 0 ? LocalTraining.withProximalTerm(MCLR, config.mu())
        : MCLR.graph();
    String objective = config.mu() > 0 ? LocalTraining.OBJECTIVE : MCLR.loss();
    List<String> names = new ArrayList<>(global.keySet());
    GradientGraph grads = Autodiff.gradients(graph, objective, names);
    GraphExecutor exec = new GraphExecutor(grads.graph());
    Map<String, NdArray> w = new LinkedHashMap<>();
    global.forEach((k, v) -> w.put(k, NdArray.fromTensor(v)));
    Optimizer opt = config.optimizer().create(config.learningRate());
    OptimizerState state = opt.init(w);
    for (int e = 0; e < config.epochs(); e++) {
      for (StructValue b : data) {
        Map<String, NdArray> feeds = new HashMap<>(w);
        feeds.put(MCLR.input(), NdArray.fromTensor((Tensor) b.get("x")));
        feeds.put(MCLR.labels(), NdArray.fromTensor((Tensor) b.get("y")));
        global.forEach((k, v) -> feeds.put(LocalTraining.ANCHOR_PREFIX + k,
            NdArray.fromTensor(v)));
        List<String> outs = names.stream().map(grads::gradientOf).toList();
        Map<String, NdArray> g = exec.run(feeds, outs);
        Map<String, NdArray> byParam = new LinkedHashMap<>();
        for (String p : names) {
          byParam.put(p, g.get(grads.gradientOf(p)));
        }
        opt.step(w, byParam, state);
      }
    }
    Map<String, Tensor> out = new LinkedHashMap<>();
    w.forEach((k, v) -> out.put(k, v.toTensor()));
    return out;
  }

  private static Map<String, Tensor> trained(StructValue out) {
    return ModelStructs.fromValue(TYPE, out.get("model"), "model");
  }

  private static ClientOptimizer named(String name) {
    return ClientOptimizer.of(name, Map.of());
  }

  @ParameterizedTest
  @ValueSource(strings = {"momentum", "adam", "adagrad", "yogi"})
  void clientUpdate_eachOptimizer_equalsOptimizerStepsByHand(String name) throws Exception {
    for (double mu : new double[] {0, 0.1}) {
      ClientUpdateConfig config = new ClientUpdateConfig(2, 0, 0.01, mu, named(name));
      Map<String, Tensor> global = MCLR.initialParameters(3);
      GraphComputation training = LocalTraining.clientTraining("t", MCLR, config);
      StructValue out = (StructValue) GraphBinder.standard().bind(training).body().apply(
          StructValue.named("model", ModelStructs.toValue(TYPE, global), "data", batches()));
      Map<String, Tensor> expected = byHand(config, global, batches());
      assertThat(trained(out)).as("%s mu=%s", name, mu).isEqualTo(expected);
      assertThat(trained(out)).isNotEqualTo(global);
    }
  }

  @Test
  void clientUpdate_adamTwice_startsFromFreshStateEachCall() throws Exception {
    ClientUpdateConfig config = new ClientUpdateConfig(1, 0, 0.01, 0, named("adam"));
    Map<String, Tensor> global = MCLR.initialParameters(4);
    JavaFunction f = GraphBinder.standard().bind(LocalTraining.clientUpdate("u", MCLR, config));
    StructValue arg = StructValue.named("model", ModelStructs.toValue(TYPE, global),
        "data", batches());
    assertThat(f.body().apply(arg)).isEqualTo(f.body().apply(arg));
  }

  @Test
  void clientUpdate_sgd_writesNoOptimizerSettings() {
    GraphComputation sgd = LocalTraining.clientUpdate("u", MCLR,
        ClientUpdateConfig.fedAvg(1, 10, 0.1));
    GraphComputation explicit = LocalTraining.clientUpdate("u", MCLR,
        new ClientUpdateConfig(1, 10, 0.1, 0, ClientOptimizer.sgd()));
    assertThat(sgd.settings()).doesNotContainKey(LocalTraining.OPTIMIZER);
    assertThat(explicit.settings()).isEqualTo(sgd.settings());
  }

  @Test
  void clientUpdate_adam_writesNameAndEveryHyperparameter() {
    GraphComputation g = LocalTraining.clientUpdate("u", MCLR,
        new ClientUpdateConfig(1, 10, 0.1, 0, ClientOptimizer.adam(0.8, 0.99, 1e-6)));
    assertThat(g.settings()).containsEntry("optimizer", "adam")
        .containsEntry("optimizer_beta1", "0.8").containsEntry("optimizer_beta2", "0.99")
        .containsEntry("optimizer_epsilon", "1.0E-6");
  }

  @Test
  void clientUpdate_sgdSettingNamedExplicitly_trainsAsDefault() throws Exception {
    GraphComputation g = LocalTraining.clientUpdate("u", MCLR,
        ClientUpdateConfig.fedAvg(1, 0, 0.1));
    GraphComputation named = withSettings(g, Map.of("optimizer", "sgd"));
    Map<String, Tensor> global = MCLR.initialParameters(5);
    StructValue arg = StructValue.named("model", ModelStructs.toValue(TYPE, global),
        "data", batches());
    assertThat(GraphBinder.standard().bind(named).body().apply(arg))
        .isEqualTo(GraphBinder.standard().bind(g).body().apply(arg));
  }

  private static GraphComputation withSettings(GraphComputation g, Map<String, String> more) {
    Map<String, String> s = new LinkedHashMap<>(g.settings());
    s.putAll(more);
    return GraphComputation.of(g.name(), g.type(), g.procedure(), g.graph(), s);
  }

  private static GraphComputation adam() {
    return LocalTraining.clientUpdate("u", MCLR,
        new ClientUpdateConfig(1, 0, 0.1, 0, named("adam")));
  }

  @Test
  void bind_unknownOptimizer_refusedNamingSetting() {
    assertThatThrownBy(() -> GraphBinder.standard().bind(
        withSettings(adam(), Map.of("optimizer", "rmsprop"))))
        .isInstanceOf(GraphBindingException.class)
        .hasMessageContaining("setting optimizer ").hasMessageContaining("rmsprop");
  }

  @Test
  void bind_betaOutOfRange_refusedNamingSetting() {
    assertThatThrownBy(() -> GraphBinder.standard().bind(
        withSettings(adam(), Map.of("optimizer_beta1", "1.5"))))
        .isInstanceOf(GraphBindingException.class)
        .hasMessageContaining("setting optimizer_beta1").hasMessageContaining("1.5");
  }

  @Test
  void bind_epsilonNotANumber_refusedNamingSetting() {
    assertThatThrownBy(() -> GraphBinder.standard().bind(
        withSettings(adam(), Map.of("optimizer_epsilon", "tiny"))))
        .isInstanceOf(GraphBindingException.class)
        .hasMessageContaining("setting optimizer_epsilon").hasMessageContaining("tiny");
  }

  @Test
  void bind_hyperparameterOfAnotherOptimizer_refusedNamingSetting() {
    assertThatThrownBy(() -> GraphBinder.standard().bind(
        withSettings(adam(), Map.of("optimizer_momentum", "0.9"))))
        .isInstanceOf(GraphBindingException.class)
        .hasMessageContaining("setting optimizer_momentum");
  }

  @Test
  void of_missingHyperparameters_takeDefaults() {
    assertThat(ClientOptimizer.of("yogi", Map.of("beta1", 0.5)).hyperparameters())
        .containsExactly(Map.entry("beta1", 0.5), Map.entry("beta2", 0.999),
            Map.entry("epsilon", 1e-3), Map.entry("initial_v", 1e-6));
  }

  @Test
  void of_unknownName_refused() {
    assertThatThrownBy(() -> ClientOptimizer.of("lbfgs", Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lbfgs");
  }

  @Test
  void create_momentum_carriesHyperparametersAndLearningRate() {
    Optimizer m = ClientOptimizer.momentum(0.5).create(0.2);
    assertThat(m.name()).isEqualTo("momentum");
    assertThat(m.hyperparameters()).containsEntry("momentum", 0.5)
        .containsEntry("learning_rate", 0.2).containsEntry("nesterov", 0.0);
    assertThat(ClientOptimizer.momentum(0.5).hyperparameters()).containsOnlyKeys("momentum");
  }
}
