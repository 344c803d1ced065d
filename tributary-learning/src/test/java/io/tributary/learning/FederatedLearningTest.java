package io.tributary.learning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The round and evaluation builders over client computations other than graph training. */
class FederatedLearningTest {
  static final String M = "<w=float32[2]>";

  /** Each client holds a number c and moves the model by c in every coordinate, with c examples. */
  static final Computation UPDATE = Federated.local("shift",
      "(<model=" + M + ",data=float32> -> <delta=" + M + ",num_examples=int64,loss=float32>)",
      arg -> {
        float c = ((Tensor) ((StructValue) arg).get(1)).getFloat(0);
        return StructValue.named("delta", StructValue.named("w",
            Tensor.ofFloats(Shape.of(2), c, c)), "num_examples",
            Tensor.ofLongs(Shape.scalar(), (long) c), "loss", Tensor.scalar(10 * c));
      });

  static final Computation EVAL = Federated.local("score",
      "(<model=" + M + ",data=float32> -> <loss=float32,num_examples=int64>)",
      arg -> {
        float c = ((Tensor) ((StructValue) arg).get(1)).getFloat(0);
        float w0 = ((Tensor) ((StructValue) ((StructValue) arg).get(0)).get(0)).getFloat(0);
        return StructValue.named("loss", Tensor.scalar(w0 + c), "num_examples",
            Tensor.ofLongs(Shape.scalar(), 1));
      });

  @Test
  void next_javaClientUpdate_addsTheExampleWeightedMeanDelta() {
    Computation next = FederatedLearning.next(UPDATE);
    assertThat(next.type().toString()).isEqualTo("(<<model=" + M + ">@SERVER,{float32}@CLIENTS>"
        + " -> <<model=" + M + ">@SERVER,<train_loss=float32,num_examples=int64,clients=int64>"
        + "@SERVER>)");
    StructValue state = StructValue.named("model", StructValue.named("w",
        Tensor.ofFloats(Shape.of(2), 1, 2)));
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      StructValue out = (StructValue) ctx.invoke(next, state,
          List.of(Tensor.scalar(1f), Tensor.scalar(3f)));
      // weights 1 and 3: mean delta (1*1 + 3*3) / 4 = 2.5
      Tensor w = (Tensor) ((StructValue) ((StructValue) out.get(0)).get(0)).get(0);
      assertThat(w).isEqualTo(Tensor.ofFloats(Shape.of(2), 3.5f, 4.5f));
      StructValue metrics = (StructValue) out.get(1);
      assertThat(((Tensor) metrics.get("train_loss")).getFloat(0)).isEqualTo(25f);
      assertThat(((Tensor) metrics.get("clients")).getLong(0)).isEqualTo(2);
    }
  }

  /**
   * Like {@link #UPDATE}, with a loss weight: a client holding c below 2 has no loss to report
   * (weight 0), the others weigh their loss 10c by c.
   */
  static final Computation WEIGHED_UPDATE = Federated.local("shift_weighed",
      "(<model=" + M + ",data=float32> -> <delta=" + M
          + ",num_examples=int64,loss=float32,loss_weight=float32>)",
      arg -> {
        float c = ((Tensor) ((StructValue) arg).get(1)).getFloat(0);
        return StructValue.named("delta", StructValue.named("w",
            Tensor.ofFloats(Shape.of(2), c, c)), "num_examples",
            Tensor.ofLongs(Shape.scalar(), (long) c), "loss", Tensor.scalar(c < 2 ? 0f : 10 * c),
            "loss_weight", Tensor.scalar(c < 2 ? 0f : c));
      });

  @Test
  void next_updateWithLossWeight_averagesTheLossOverWeightedClientsOnly() {
    Computation next = FederatedLearning.next(WEIGHED_UPDATE);
    assertThat(next.type().result().toString()).isEqualTo("<<model=" + M + ">@SERVER,"
        + "<train_loss=float32,num_examples=int64,clients=int64>@SERVER>");
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      StructValue out = (StructValue) ctx.invoke(next, state(),
          List.of(Tensor.scalar(1f), Tensor.scalar(2f), Tensor.scalar(4f)));
      // the deltas still by examples 1, 2, 4: (1 + 4 + 16) / 7 = 3
      Tensor w = (Tensor) ((StructValue) ((StructValue) out.get(0)).get(0)).get(0);
      assertThat(w).isEqualTo(Tensor.ofFloats(Shape.of(2), 4, 5));
      // the loss over the clients with a weight: (2*20 + 4*40) / 6, the client of 1 left out
      StructValue metrics = (StructValue) out.get(1);
      assertThat(((Tensor) metrics.get("train_loss")).getFloat(0)).isEqualTo(200f / 6);
      assertThat(((Tensor) metrics.get("num_examples")).getLong(0)).isEqualTo(7);
      assertThat(((Tensor) metrics.get("clients")).getLong(0)).isEqualTo(3);
    }
  }

  @Test
  void next_updateWithLossWeightAllZero_trainLossIsNaN() {
    Computation next = FederatedLearning.next(WEIGHED_UPDATE);
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      StructValue out = (StructValue) ctx.invoke(next, state(),
          List.of(Tensor.scalar(1f), Tensor.scalar(1f)));
      StructValue metrics = (StructValue) out.get(1);
      assertThat(((Tensor) metrics.get("train_loss")).getFloat(0)).isNaN();
      assertThat(RoundOutput.of(out).metrics().trainLoss()).isNaN();
      Tensor w = (Tensor) ((StructValue) ((StructValue) out.get(0)).get(0)).get(0);
      assertThat(w).isEqualTo(Tensor.ofFloats(Shape.of(2), 2, 3));
    }
  }

  @Test
  void next_updateWithLossWeightOfWrongType_throwsNamingBothShapes() {
    Computation bad = Federated.local("bad", "(<model=" + M + ",data=float32> -> <delta=" + M
        + ",num_examples=int64,loss=float32,loss_weight=int64>)", arg -> null);
    assertThatThrownBy(() -> FederatedLearning.next(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("loss_weight=float32[,norm_bit=int64]>");
  }

  private static StructValue state() {
    return StructValue.named("model", StructValue.named("w",
        Tensor.ofFloats(Shape.of(2), 1, 2)));
  }

  @Test
  void evaluate_javaEvaluation_averagesEveryElementButTheCount() {
    Computation evaluate = FederatedLearning.evaluate(EVAL);
    assertThat(evaluate.type().result().toString())
        .isEqualTo("<loss=float32,num_examples=int64>@SERVER");
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      StructValue out = (StructValue) ctx.invoke(evaluate,
          StructValue.named("w", Tensor.ofFloats(Shape.of(2), 1, 2)),
          List.of(Tensor.scalar(1f), Tensor.scalar(3f)));
      assertThat(((Tensor) out.get("loss")).getFloat(0)).isEqualTo(3f);
      assertThat(((Tensor) out.get("num_examples")).getLong(0)).isEqualTo(2);
    }
  }

  @Test
  void call_namedParametersGivenInOrder_runsWithTheParametersNamed() {
    io.tributary.core.types.Type clients = io.tributary.core.types.Types.parse("{float32}@CLIENTS");
    Computation weighted = Federated.computation(List.of(
        io.tributary.core.computation.Param.of("values", clients),
        io.tributary.core.computation.Param.of("weights", clients)),
        a -> io.tributary.core.computation.Intrinsics.federatedWeightedMean(a.get("values"),
            a.get("weights")));
    Computation outer = Federated.computation(clients, clients,
        (v, w) -> weighted.call(v, w));
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      Object out = ctx.invoke(outer, List.of(Tensor.scalar(1f), Tensor.scalar(4f)),
          List.of(Tensor.scalar(1f), Tensor.scalar(3f)));
      assertThat(((Tensor) out).getFloat(0)).isEqualTo(3.25f);
    }
  }

  @Test
  void evaluate_perMetricAggregation_usesTheChosenIntrinsic() {
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      for (var c : java.util.Map.of(MetricAggregation.MAX, 4f, MetricAggregation.MIN, 2f,
          MetricAggregation.SUM, 6f, MetricAggregation.MEAN, 3f).entrySet()) {
        Computation evaluate = FederatedLearning.evaluate(EVAL,
            java.util.Map.of("loss", c.getKey()));
        StructValue out = (StructValue) ctx.invoke(evaluate,
            StructValue.named("w", Tensor.ofFloats(Shape.of(2), 1, 2)),
            List.of(Tensor.scalar(1f), Tensor.scalar(3f)));
        assertThat(((Tensor) out.get("loss")).getFloat(0)).as(c.getKey().name())
            .isEqualTo(c.getValue());
      }
    }
    assertThatThrownBy(() -> FederatedLearning.evaluate(EVAL,
        java.util.Map.of("accuracy", MetricAggregation.MAX)))
        .hasMessageContaining("has no metric 'accuracy'");
  }

  @Test
  void next_updateWithWrongResult_throwsNamingTheExpectedType() {
    Computation bad = Federated.local("bad",
        "(<model=" + M + ",data=float32> -> <delta=" + M + ",num_examples=int32,loss=float32>)",
        arg -> null);
    assertThatThrownBy(() -> FederatedLearning.next(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("<delta=" + M + ",num_examples=int64,loss=float32>");
  }

  @Test
  void process_initializeOfAnotherModel_throws() {
    Computation init = Federated.computation(() -> io.tributary.core.computation.Intrinsics
        .federatedValue(Federated.constant(Tensor.scalar(1f)),
            io.tributary.core.types.Placement.SERVER));
    assertThatThrownBy(() -> FederatedLearning.process("x", init, UPDATE, EVAL))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initialize");
  }
}
