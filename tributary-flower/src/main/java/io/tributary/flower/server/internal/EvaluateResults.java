package io.tributary.flower.server.internal;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.values.StructValue;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Turns a client's EvaluateRes into its evaluation, {@code <loss=float32,num_examples=int64>}
 * (a loss that is not finite weighs 0 and is counted), and keeps the round's free-form
 * evaluation metrics for the round's figures.
 */
final class EvaluateResults {
  /** The evaluation's result type. */
  static final StructType TYPE = StructType.named("loss", TensorType.of(DType.FLOAT32),
      "num_examples", TensorType.of(DType.INT64));

  private final ClientReports reports = new ClientReports();
  private final AtomicInteger nonFinite = new AtomicInteger();

  /**
   * {@code client}'s evaluation from its answer {@code res}.
   *
   * @throws io.tributary.flower.server.RemoteClientException when the answer is unusable
   */
  StructValue evaluation(RemoteClient client, ClientMessage.EvaluateRes res) {
    RemoteCall.requireOk(client, res.getStatus(), "EvaluateRes");
    if (res.getNumExamples() < 0) {
      throw RemoteCall.fail(client, "EvaluateRes has num_examples " + res.getNumExamples(),
          null);
    }
    reports.record(client.id(), res.getNumExamples(), ClientMetrics.without(client,
        res.getMetricsMap(), null));
    if (!Float.isFinite(res.getLoss())) {
      // Weight 0 leaves the loss out of the weighted mean; the round counts it.
      nonFinite.incrementAndGet();
      return StructValue.named("loss", Tensor.scalar(0f), "num_examples",
          Tensor.ofLongs(Shape.scalar(), 0));
    }
    return StructValue.named("loss", Tensor.scalar(res.getLoss()), "num_examples",
        Tensor.ofLongs(Shape.scalar(), res.getNumExamples()));
  }

  /** The round's evaluation metrics reported so far. */
  ClientReports reports() {
    return reports;
  }

  /** The losses and metrics left out as not finite since the last call, and a fresh count. */
  int drainNonFinite() {
    return nonFinite.getAndSet(0) + reports.drainNonFinite();
  }
}
