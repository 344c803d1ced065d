package io.tributary.privacy;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Flat L2 clipping of a model update (McMahan et al. 2018, "Learning Differentially Private
 * Recurrent Language Models"): every layer is scaled by {@code min(1, C / ||update||)}, where the
 * norm is taken over all layers together, so that the update's L2 norm is at most C.
 */
public final class Clipping {
  private Clipping() {}

  /**
   * An update after clipping.
   *
   * @param update the clipped layers
   * @param norm the L2 norm before clipping
   * @param clipped whether it was scaled down (norm > C); an update at most C passes unchanged
   */
  public record Clipped(List<Tensor> update, double norm, boolean clipped) {
    /** Copies the list. */
    public Clipped {
      update = List.copyOf(update);
    }
  }

  /**
   * The L2 norm of all layers together.
   *
   * @throws IllegalArgumentException when a layer is not of a floating dtype
   */
  public static double l2Norm(List<Tensor> update) {
    double sum = 0;
    for (Tensor t : update) {
      if (!t.dtype().isFloating()) {
        throw new IllegalArgumentException("clipping needs floating layers, got " + t.dtype());
      }
      for (long i = 0; i < t.size(); i++) {
        double v = t.getAsDouble(i);
        sum += v * v;
      }
    }
    return Math.sqrt(sum);
  }

  /**
   * {@code update} clipped to L2 norm {@code clippingNorm}.
   *
   * @throws IllegalArgumentException when the norm is not positive and finite, or the update
   *     holds a non-finite value (its norm is not finite)
   */
  public static Clipped clip(List<Tensor> update, double clippingNorm) {
    if (!(clippingNorm > 0) || Double.isInfinite(clippingNorm)) {
      throw new IllegalArgumentException("clipping_norm must be positive and finite, got "
          + clippingNorm);
    }
    double norm = l2Norm(update);
    if (!Double.isFinite(norm)) {
      throw new IllegalArgumentException("the update's L2 norm is " + norm
          + ": it holds a non-finite value");
    }
    if (norm <= clippingNorm) {
      return new Clipped(update, norm, false);
    }
    double scale = clippingNorm / norm;
    List<Tensor> out = new ArrayList<>(update.size());
    for (Tensor t : update) {
      TensorBuilder b = TensorBuilder.allocate(t.dtype(), t.shape());
      for (long i = 0; i < t.size(); i++) {
        b.setFromDouble(i, t.getAsDouble(i) * scale);
      }
      out.add(b.build());
    }
    return new Clipped(out, norm, true);
  }

  /**
   * {@code values} plus independent Gaussian noise of standard deviation {@code stddev} at every
   * element, drawn from {@code noise} in layer and element order.
   *
   * @throws IllegalArgumentException when stddev is negative or not finite
   */
  public static List<Tensor> addGaussianNoise(List<Tensor> values, double stddev,
      NoiseSource noise) {
    if (!(stddev >= 0) || Double.isInfinite(stddev)) {
      throw new IllegalArgumentException("noise stddev must be finite and >= 0, got " + stddev);
    }
    List<Tensor> out = new ArrayList<>(values.size());
    for (Tensor t : values) {
      TensorBuilder b = TensorBuilder.allocate(t.dtype(), t.shape());
      for (long i = 0; i < t.size(); i++) {
        b.setFromDouble(i, t.getAsDouble(i) + stddev * noise.nextGaussian());
      }
      out.add(b.build());
    }
    return out;
  }
}
