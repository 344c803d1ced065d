package io.tributary.graph.ops;

import java.util.Objects;

/**
 * An instruction to a {@link CompiledRun}: add {@code scale} times the value of {@code output}
 * onto the array fed for {@code target}, in place, instead of returning the value. A training
 * step uses it for plain SGD ({@code w += -lr * dL/dw}).
 *
 * <p>The run adds after every op has run, so each op reads the target as it was fed. When the
 * value is a matrix product that nothing else reads, the product is computed straight onto the
 * target ({@code target = scale * op(a) op(b) + target}, one GEMM call), so the value is never
 * stored and the target is not swept a second time.
 *
 * @param output the variable whose value is added; floating, of the target's dtype and shape
 * @param target a placeholder or trainable parameter among the run's feeds; its array is updated
 * @param scale the factor, finite
 */
public record Accumulation(String output, String target, double scale) {
  public Accumulation {
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(target, "target");
    if (!Double.isFinite(scale)) {
      throw new IllegalArgumentException(describe(output, target) + ": scale must be finite, got "
          + scale);
    }
  }

  /** How errors name an accumulation: {@code accumulation of 'OUTPUT' into 'TARGET'}. */
  static String describe(String output, String target) {
    return "accumulation of '" + output + "' into '" + target + "'";
  }
}
