package io.tributary.graph.ops;

/**
 * Prepares the matrix-product kernels on a background thread while a command does its own start-up
 * (parsing settings, loading data): the Vector API's narrow kernel runs tens of times slower until
 * the JIT has compiled it, and loading OpenBLAS, when a run uses it, takes about 0.3 s.
 *
 * <p>Nothing here changes a result: the thread touches no shared state besides the kernels' own
 * one-time initialization, which the JVM runs once whichever thread gets there first, and whatever
 * needs a kernel before the thread is done waits for that initialization or runs the kernel as it
 * is.
 */
public final class KernelWarmUp {
  private KernelWarmUp() {}

  /**
   * Starts the preparation of {@link GemmKernel#DEFAULT}; see {@link
   * #startInBackground(GemmKernel)}.
   */
  public static Thread startInBackground() {
    return startInBackground(GemmKernel.DEFAULT);
  }

  /**
   * Starts the preparation of {@code kernel} (the one the run passes to its graph executors) on a
   * daemon thread, which ends by itself (and does not keep the JVM alive), and returns that
   * thread. Call it from the command's thread before it loads data; the call itself does not
   * initialize the kernels.
   */
  public static Thread startInBackground(GemmKernel kernel) {
    java.util.Objects.requireNonNull(kernel, "kernel");
    Thread t = new Thread(() -> Gemm.warmUp(kernel), "tributary-kernel-warm-up");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
