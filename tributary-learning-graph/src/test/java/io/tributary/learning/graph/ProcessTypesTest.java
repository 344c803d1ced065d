package io.tributary.learning.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.LocalComputation;
import io.tributary.core.compiler.LocalComputations;
import io.tributary.core.compiler.TypeChecker;
import io.tributary.core.computation.Computation;
import io.tributary.core.proto.ComputationProtos;
import io.tributary.core.proto.LocalResolver;
import io.tributary.graph.local.GraphBinder;
import io.tributary.graph.models.Models;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.LearningProcess;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The printed types and compact forms that docs/learning.md shows. */
class ProcessTypesTest {
  static final String M = "<dense=<kernel=float32[60,10],bias=float32[10]>>";
  static final String B = "<x=float32[?,60],y=int64[?]>";
  static final String S = "<model=" + M + ">";
  static final String METRICS = "<train_loss=float32,num_examples=int64,clients=int64>";

  @Test
  void types_fedAvgAndFedProx_printAsDocumented() {
    for (LearningProcess p : List.of(
        GraphLearning.build(FederatedAlgorithm.fedAvg(), Models.mclr(), 20, 10, 0.01, 0),
        GraphLearning.build(FederatedAlgorithm.named("fedprox", java.util.Map.of("proximal_mu", 1.0)),
            Models.mclr(), 20, 10, 0.01, 0))) {
      assertThat(p.initialize().type().toString()).isEqualTo("( -> " + S + "@SERVER)");
      assertThat(p.next().type().toString()).isEqualTo(
          "(<" + S + "@SERVER,{" + B + "*}@CLIENTS> -> <" + S + "@SERVER," + METRICS
              + "@SERVER>)");
      assertThat(p.evaluate().type().toString()).isEqualTo(
          "(<" + M + "@SERVER,{" + B + "*}@CLIENTS> -> "
              + "<loss=float32,accuracy=float32,num_examples=int64>@SERVER)");
    }
  }

  @Test
  void compactForms_printAsDocumented() {
    LearningProcess p = GraphLearning.build(
        FederatedAlgorithm.named("fedprox", java.util.Map.of("proximal_mu", 1.0)), Models.mclr(), 20,
        10, 0.01, 0);
    assertThat(p.initialize().print())
        .isEqualTo("( -> federated_eval_at_server(( -> <model=graph:initial_model()>)))");
    assertThat(p.next().format()).isEqualTo("""
        (arg -> (let
          apply0=federated_apply(<(x -> x.model),arg[0]>),
          map3=federated_map(<graph:client_update,federated_zip_at_clients(<federated_broadcast(apply0),arg[1]>)>),
          map4=federated_map(<(x -> x.num_examples),map3>)
         in <federated_zip_at_server(<model=federated_apply(<(arg -> generic_plus(<arg[0],arg[1]>)),federated_zip_at_server(<apply0,federated_weighted_mean(<federated_map(<(x -> x.delta),map3>),map4>)>)>)>),federated_zip_at_server(<train_loss=federated_weighted_mean(<federated_map(<(x -> x.loss),map3>),map4>),num_examples=federated_sum(map4),clients=federated_sum(federated_map(<(arg -> int64(1)),map3>))>)>))""");
    assertThat(p.evaluate().format()).isEqualTo("""
        (arg -> (let
          map2=federated_map(<graph:evaluate,federated_zip_at_clients(<federated_broadcast(arg[0]),arg[1]>)>),
          map3=federated_map(<(x -> x.num_examples),map2>)
         in federated_zip_at_server(<loss=federated_weighted_mean(<federated_map(<(x -> x.loss),map2>),map3>),accuracy=federated_weighted_mean(<federated_map(<(x -> x.accuracy),map2>),map3>),num_examples=federated_sum(map3)>)))""");
  }

  @Test
  void computations_typeCheckAndSurviveProtoRoundTripUnbound() throws Exception {
    LearningProcess p = GraphLearning.build(
        FederatedAlgorithm.named("fedprox", java.util.Map.of("proximal_mu", 1.0)), Models.mclr(), 20,
        10, 0.01, 0);
    for (Computation c : List.of(p.initialize(), p.next(), p.evaluate())) {
      assertThat(TypeChecker.check(c.block()).diagnostics()).isEmpty();
      // Selections by name are written as indices, so compare types and the re-written bytes.
      byte[] bytes = ComputationProtos.toBytes(c.block());
      BuildingBlock read = ComputationProtos.fromBytes(bytes, LocalResolver.none());
      assertThat(TypeChecker.check(read).type()).contains(c.type());
      assertThat(ComputationProtos.toBytes(read)).isEqualTo(bytes);
      assertThat(LocalComputations.all(read)).isEqualTo(LocalComputations.all(c.block()));
    }
    List<LocalComputation> locals = LocalComputations.all(p.next().block());
    assertThat(locals).filteredOn(lc -> lc instanceof GraphComputation)
        .extracting(LocalComputation::name).containsExactly("client_update");
    assertThat(((GraphComputation) locals.get(0)).settings()).containsEntry("mu", "1.0")
        .containsEntry("epochs", "20").containsEntry("batch_size", "10")
        .containsEntry("learning_rate", "0.01");
  }

  @Test
  void bound_keepsEveryTypeAndLeavesNoGraphComputation() throws Exception {
    LearningProcess p = GraphLearning.build(FederatedAlgorithm.fedAvg(), Models.mclr(), 1, 10, 0.1,
        0);
    LearningProcess b = GraphLearning.bound(p, GraphBinder.standard());
    assertThat(b.next().type()).isEqualTo(p.next().type());
    assertThat(b.initialize().type()).isEqualTo(p.initialize().type());
    assertThat(LocalComputations.all(b.next().block()))
        .noneMatch(lc -> lc instanceof GraphComputation);
    assertThat(b.next().format()).isEqualTo(p.next().format().replace("graph:", "java:"));
  }
}
