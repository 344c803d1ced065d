package io.tributary.learning.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A whole-round rule given as one lambda to {@link WholeRoundAggregator#of}. */
class WholeRoundAggregatorTest {
  private static final StructType MODEL =
      StructType.named("w", TensorType.of(DType.FLOAT32, 2));
  private static final long[] EXAMPLES = {5, 40, 7};

  /** The update of the client with the most examples: needs both updates and counts. */
  private static final WholeRoundAggregator MOST_EXAMPLES = WholeRoundAggregator.of(
      "most_examples", u -> {
        int best = 0;
        for (int c = 1; c < u.size(); c++) {
          if (u.examples(c) > u.examples(best)) {
            best = c;
          }
        }
        return u.client(best);
      });

  private static Tensor update(int c) {
    return Tensor.ofFloats(Shape.of(2), c, 10 * c);
  }

  @Test
  void of_lambda_namesTheAggregatorAndAggregatesByIt() {
    List<List<Tensor>> updates = List.of(List.of(update(0)), List.of(update(1)),
        List.of(update(2)));

    assertThat(MOST_EXAMPLES.name()).isEqualTo("most_examples");
    assertThat(MOST_EXAMPLES.aggregate(new ClientUpdates(updates, EXAMPLES)))
        .containsExactly(update(1));
  }

  @Test
  void of_lambda_federatedComputationAppliesItToTheRound() {
    AggregationProcess p = MOST_EXAMPLES.create(MODEL);
    List<Object> updates = new ArrayList<>();
    List<Object> examples = new ArrayList<>();
    for (int c = 0; c < EXAMPLES.length; c++) {
      updates.add(StructValue.named("w", update(c)));
      examples.add(Tensor.ofLongs(Shape.scalar(), EXAMPLES[c]));
    }
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      StructValue out = (StructValue) ctx.invoke(p.next(), updates, examples);

      assertThat(out.tensor("w")).isEqualTo(update(1));
    }
  }

  @Test
  void of_nameNotAnIdentifier_createRefusesIt() {
    WholeRoundAggregator spaced = WholeRoundAggregator.of("most examples", u -> u.client(0));

    assertThatThrownBy(() -> spaced.create(MODEL))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("most examples");
  }
}
