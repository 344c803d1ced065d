package io.tributary.runtime.executor.internal.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.types.Types;
import io.tributary.runtime.ClientValues;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.executor.internal.federated.ClientNode;
import io.tributary.runtime.executor.internal.local.LinearAccumulator;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LinearSink#release}: a combined partial comes back empty, the total untouched. */
class LinearSinkReuseTest {
  private static LinearSink sum() {
    ClientNode value = new ClientNode.Argument(Types.parse("{float32[3]}@CLIENTS"),
        ClientValues.of(List.of()));
    return LinearSink.sum("federated_sum", value, RuntimeOptions.defaults());
  }

  @Test
  void newPartial_afterRelease_handsBackTheReleasedPartialEmptied() {
    LinearSink sink = sum();
    LinearAccumulator left = (LinearAccumulator) sink.newPartial();
    LinearAccumulator right = (LinearAccumulator) sink.newPartial();
    left.add(Tensor.ofFloats(Shape.of(3), 0.5f, 0.25f, 4f), 1.0);
    right.add(Tensor.ofFloats(Shape.of(3), 1f, 2f, 3f), 1.0);
    Object total = sink.combine(left, right);
    sink.release(right);

    Object next = sink.newPartial();
    assertThat(next).isSameAs(right);
    assertThat(right.count()).isZero();
    right.add(Tensor.ofFloats(Shape.of(3), 100f, 100f, 100f), 1.0);
    Tensor sum = (Tensor) sink.result(total);
    assertThat(new float[] {sum.getFloat(0), sum.getFloat(1), sum.getFloat(2)})
        .containsExactly(1.5f, 2.25f, 7f);
  }

  @Test
  void release_ofASecureSumsPartial_keepsNothing() {
    ClientNode value = new ClientNode.Argument(Types.parse("{int32[3]}@CLIENTS"),
        ClientValues.of(List.of()));
    LinearSink sink = LinearSink.secure("federated_secure_sum", value,
        Tensor.ofInts(Shape.scalar(), 7), false, RuntimeOptions.defaults(), SecureMode.CLIENT);
    Object partial = sink.newPartial();
    sink.release(partial);
    assertThat(sink.newPartial()).isNotSameAs(partial);
  }
}
