package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import java.util.List;

/**
 * {@code accuracy(logits, labels)}: the fraction of rows of logits [N, C] whose argmax equals the
 * label, a scalar of the logits' dtype. Labels are class indices [N] or distributions [N, C] (their
 * argmax is the class).
 */
final class AccuracyOp extends BaseOp {
  AccuracyOp() {
    super("accuracy", 2);
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    ValueType logits = in.get(0);
    ValueType labels = in.get(1);
    Infer.requireFloat(logits, "logits");
    Infer.requireRank(logits, 2, "logits");
    if (Infer.isInt(labels.dtype())) {
      Infer.requireRank(labels, 1, "labels");
    } else {
      Infer.requireSameDType(labels, logits, "dense labels and logits differ in dtype");
      Infer.requireRank(labels, 2, "dense labels");
      if (!labels.shape().compatibleWith(logits.shape())) {
        throw OpInferenceException.shape("labels " + labels.shape() + " do not match logits "
            + logits.shape());
      }
    }
    if (!Infer.dimsAgree(labels.shape().dim(0), logits.shape().dim(0))) {
      throw OpInferenceException.shape("labels " + labels.shape() + " do not match logits "
          + logits.shape());
    }
    return List.of(new ValueType(logits.dtype(), PartialShape.of()));
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    NdArray logits = in[0];
    NdArray labels = in[1];
    int n = logits.dim(0);
    int c = logits.dim(1);
    if (labels.dim(0) != n) {
      throw new IllegalArgumentException("labels " + labels + " do not match logits " + logits);
    }
    long[] predicted = ArgMaxOp.argmax(logits, n, c, 1);
    long[] truth = labels.rank() == 1 ? labels.longs() : ArgMaxOp.argmax(labels, n, c, 1);
    int hits = 0;
    for (int i = 0; i < n; i++) {
      hits += predicted[i] == truth[i] ? 1 : 0;
    }
    return new NdArray[] {NdArray.scalar(logits.dtype(), n == 0 ? 0.0 : (double) hits / n)};
  }
}
