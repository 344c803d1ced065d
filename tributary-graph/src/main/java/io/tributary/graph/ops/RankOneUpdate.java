package io.tributary.graph.ops;

/**
 * A training step's weight update that a compiled run left unapplied ({@link
 * CompiledRun#runDeferringRankOne}): {@code target += alpha u v^T}, a product over one step of k
 * (a batch of one example) fused into its parameter's accumulation. Applied, element (i, j) of
 * the target becomes {@code fma(fma(u[i], v[j], 0), alpha, target[i][j])}, the bits every kernel
 * writes for such a product; {@link #applyTo} does that. Left unapplied, the change it makes can
 * be read where it is summed ({@link io.tributary.tensor.Tensor#rankOneStep}) without a trained
 * array ever being written.
 *
 * @param target the parameter array the run would have updated (left as it was)
 * @param u the product's column of A, one element per row of the target (a copy)
 * @param v the product's row of B, one element per column of the target (a copy)
 * @param alpha the accumulation's scale, as the product rounds it
 */
public record RankOneUpdate(NdArray target, float[] u, float[] v, float alpha) {
  /** Writes the update into {@code c} (row-major, {@code u.length} x {@code v.length}). */
  public void applyTo(float[] c) {
    int n = v.length;
    for (int i = 0; i < u.length; i++) {
      float x = u[i];
      int row = i * n;
      for (int j = 0; j < n; j++) {
        c[row + j] = Math.fma(Math.fma(x, v[j], 0f), alpha, c[row + j]);
      }
    }
  }
}
