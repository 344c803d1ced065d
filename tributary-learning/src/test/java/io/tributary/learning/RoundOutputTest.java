package io.tributary.learning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.values.StructValue;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import org.junit.jupiter.api.Test;

class RoundOutputTest {
  private static final StructValue MODEL = StructValue.named("w", Tensor.scalar(1f));

  private static StructValue metrics(float loss, long examples, long clients) {
    return StructValue.named("train_loss", Tensor.scalar(loss),
        "num_examples", Tensor.ofLongs(Shape.scalar(), examples),
        "clients", Tensor.ofLongs(Shape.scalar(), clients));
  }

  @Test
  void of_nextResult_readsStateAndMetricsUnchanged() {
    StructValue state = StructValue.named("model", MODEL);
    RoundOutput out = RoundOutput.of(StructValue.of(state, metrics(0.1f, 640, 5)));
    assertThat(out.state()).isSameAs(state);
    assertThat(out.model()).isSameAs(MODEL);
    assertThat(out.metrics()).isEqualTo(new RoundOutput.Metrics(0.1f, 640, 5));
  }

  @Test
  void of_notAStateMetricsPair_throwsSayingWhatItGot() {
    assertThatThrownBy(() -> RoundOutput.of(Tensor.scalar(1f)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a Tensor");
    assertThatThrownBy(() -> RoundOutput.of(StructValue.of(MODEL)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a struct of 1 elements");
  }

  @Test
  void metricsOf_missingMetric_throwsNamingIt() {
    StructValue partial = StructValue.named("train_loss", Tensor.scalar(0.5f));
    assertThatThrownBy(() -> RoundOutput.Metrics.of(partial))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("num_examples");
  }

  @Test
  void evaluationOutputOf_evaluateResult_readsLossAccuracyAndCount() {
    StructValue result = StructValue.named("loss", Tensor.scalar(0.75f),
        "accuracy", Tensor.scalar(0.9f), "num_examples", Tensor.ofLongs(Shape.scalar(), 360));
    assertThat(EvaluationOutput.of(result)).isEqualTo(new EvaluationOutput(0.75f, 0.9f, 360));
    assertThatThrownBy(() -> EvaluationOutput.of(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null");
  }
}
