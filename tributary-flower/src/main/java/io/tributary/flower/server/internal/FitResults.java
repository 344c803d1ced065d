package io.tributary.flower.server.internal;

import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.learning.aggregation.ClientSignal;
import io.tributary.learning.aggregation.ClientSignals;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Turns a client's FitRes into its client update, carrying the signals the round reads ({@link
 * ClientSignals}, the aggregator's declaration): the delta, the example count it is weighted
 * with, its loss with the loss's weight, and its {@code norm_bit} when the aggregator takes it.
 * It keeps the round's free-form fit metrics for the round's figures.
 */
final class FitResults {
  /**
   * The largest loss times weight a client's loss may have to count, 2^100: far above any real
   * loss, and small enough that the float32 sum over 2^27 clients stays below Float.MAX_VALUE.
   */
  private static final double MAX_WEIGHTED_LOSS = 0x1p100;

  private final ParameterCodec codec;
  private final ClientSignals signals;
  private final StructType updateType;
  private final List<java.util.Optional<String>> names;
  private final long maxExamples;
  private final ClientReports reports = new ClientReports();
  private final AtomicInteger nonFinite = new AtomicInteger();

  /**
   * @param maxExamples the bound on the example count a client is weighted with (the runtime's
   *     weight bound), which also bounds the weight of its loss
   */
  FitResults(ParameterCodec codec, ClientSignals signals, long maxExamples) {
    this.codec = codec;
    this.signals = signals;
    this.updateType = signals.updateType(codec.spec().type());
    this.names = updateType.elements().stream().map(StructType.Element::name).toList();
    this.maxExamples = maxExamples;
  }

  /** The client update's type: {@link ClientSignals#updateType} of the model. */
  StructType updateType() {
    return updateType;
  }

  /**
   * {@code client}'s update from its answer {@code res} to {@code model}, its count bounded by
   * {@code relativeMaxExamples} (the runtime applies the absolute bound).
   *
   * @throws io.tributary.flower.server.RemoteClientException when the answer is unusable
   */
  StructValue update(RemoteClient client, ClientMessage.FitRes res, StructValue model,
      long relativeMaxExamples) {
    RemoteCall.requireOk(client, res.getStatus(), "FitRes");
    List<Tensor> got = codec.decode(client, res.getParameters());
    if (res.getNumExamples() < 0) {
      throw RemoteCall.fail(client, "FitRes has num_examples " + res.getNumExamples(), null);
    }
    OptionalDouble reported = ClientMetrics.number(client, res.getMetricsMap(), "loss");
    // The loss's weight in the round's train_loss: its (bounded) examples, 0 when not reported.
    long counted = Math.min(res.getNumExamples(), relativeMaxExamples);
    float weight = (float) Math.min(counted, maxExamples);
    float loss = reported.isPresent() ? (float) reported.getAsDouble() : 0f;
    if (reported.isPresent() && !(Math.abs((double) loss * weight) <= MAX_WEIGHTED_LOSS)) {
      // Left out of the metrics, as if not reported: a loss that is not finite in float32, or
      // so large that the round's float32 sum of weighted losses could overflow and refuse the
      // round's aggregate. The runtime checks the update itself.
      nonFinite.incrementAndGet();
      reported = OptionalDouble.empty();
    }
    if (reported.isEmpty()) {
      loss = 0f;
      weight = 0f;
    }
    reports.record(client.id(), res.getNumExamples(), ClientMetrics.without(client,
        res.getMetricsMap(), "loss"));
    List<Tensor> delta = client.isRelay() ? got : delta(got, ModelSpec.tensors(model));
    List<Object> values = new ArrayList<>(List.of(codec.spec().value(delta),
        Tensor.ofLongs(Shape.scalar(), counted), Tensor.scalar(loss), Tensor.scalar(weight)));
    if (signals.contains(ClientSignal.NORM_BIT)) {
      values.add(Tensor.ofLongs(Shape.scalar(), normBit(client, res.getMetricsMap())));
    }
    return update(values);
  }

  /**
   * The update standing for securely aggregated clients, which report no loss: {@code delta}
   * weighted with {@code examples}.
   */
  StructValue aggregated(List<Tensor> delta, long examples) {
    if (signals.contains(ClientSignal.NORM_BIT)) {
      throw new IllegalStateException("a secure round does not reveal the clients' norm bits");
    }
    return update(List.of(codec.spec().value(delta), Tensor.ofLongs(Shape.scalar(), examples),
        Tensor.scalar(0f), Tensor.scalar(0f)));
  }

  /** The values as an update of {@link #updateType}, named as it is. */
  private StructValue update(List<Object> values) {
    return StructValue.of(names, values);
  }

  /** The update a client's trained parameters make: {@code got - sent}, in the model's types. */
  static List<Tensor> delta(List<Tensor> got, List<Tensor> sent) {
    List<Tensor> delta = new ArrayList<>(sent.size());
    for (int i = 0; i < sent.size(); i++) {
      delta.add(TensorMath.subtract(got.get(i), sent.get(i)));
    }
    return delta;
  }

  /** The round's fit metrics reported so far. */
  ClientReports reports() {
    return reports;
  }

  /** The losses left out as not finite or too large since the last call, and a fresh count. */
  int drainNonFinite() {
    return nonFinite.getAndSet(0) + reports.drainNonFinite();
  }

  /** The FitRes metric {@code norm_bit} as 0 or 1; a client without it fails. */
  private static long normBit(RemoteClient client,
      Map<String, io.tributary.flower.internal.proto.Scalar> metrics) {
    io.tributary.flower.internal.proto.Scalar v = metrics.get("norm_bit");
    if (v == null) {
      throw RemoteCall.fail(client, "FitRes has no norm_bit metric, which client-side adaptive "
          + "clipping needs (Flower's adaptiveclipping_mod sends it)", null);
    }
    return switch (v.getScalarCase()) {
      case BOOL -> v.getBool() ? 1 : 0;
      case SINT64 -> v.getSint64() != 0 ? 1 : 0;
      case UINT64 -> v.getUint64() != 0 ? 1 : 0;
      case DOUBLE -> {
        if (Double.isNaN(v.getDouble())) {
          throw RemoteCall.fail(client, "FitRes metric norm_bit is NaN", null);
        }
        yield v.getDouble() != 0 ? 1 : 0;
      }
      default -> throw RemoteCall.fail(client, "FitRes metric norm_bit is not a bool or a "
          + "number", null);
    };
  }
}
