package io.tributary.flower.server;

/**
 * Sizes a server's memory bounds from the memory it may use, so that a round of many clients
 * fits the heap it is given instead of running out of it.
 *
 * <p>A round of N clients of a model of E parameters holds, at most: the instructions handed to
 * gRPC and not yet written ({@link #outboundBytes()}, direct memory); the fit answers read ahead
 * of the round ({@link #readAheadBytes()}); one HTTP/2 stream window of answer bytes for each
 * client not yet admitted ({@link #flowControlWindow(int)}, direct memory); and the runtime's
 * float64 partial sums, up to 2 x workers + 1 of 8E bytes each ({@link #workers(long, int)}).
 * Each is given a share of {@code maxMemory}: an eighth each for the first two; the windows are
 * left to gRPC's tuning (up to 8 MiB each) from 256 KiB of memory a client, and fixed at 64 KiB,
 * HTTP/2's first window, below that; a quarter for the partial sums, and the rest for the
 * model's own copies, the answers being decoded and everything else. The JVM bounds direct memory by the heap's limit ({@code -Xmx}) unless
 * {@code -XX:MaxDirectMemorySize} says otherwise.
 *
 * @param maxMemory the bytes the server may use: the JVM's heap limit for a server alone in its
 *     JVM ({@link #ofThisJvm()}), less for one that shares its JVM
 */
public record ServerMemory(long maxMemory) {
  /** The most any of the byte budgets is given: 256 MiB. */
  public static final int MAX_BUDGET_BYTES = 256 << 20;
  /** The smallest budget and stream window: 64 KiB, HTTP/2's own initial window. */
  public static final int MIN_WINDOW_BYTES = 64 << 10;
  /**
   * The largest stream window given by default: 8 MiB, the most gRPC's bandwidth estimate grows
   * its window to.
   */
  public static final int MAX_DEFAULT_WINDOW_BYTES = 8 << 20;
  /**
   * The memory per client from which stream windows are left to gRPC's tuning: 256 KiB, about
   * the least measured to hold them (a 256 MiB server of 1,000 clients of a 4 MB model).
   */
  public static final int TUNED_MEMORY_PER_CLIENT = 256 << 10;

  public ServerMemory {
    if (maxMemory < 16L << 20) {
      throw new IllegalArgumentException("a server needs at least 16 MiB of memory, got "
          + maxMemory + " bytes");
    }
  }

  /** The memory of this JVM: its heap's limit. */
  public static ServerMemory ofThisJvm() {
    return new ServerMemory(Runtime.getRuntime().maxMemory());
  }

  /** Bytes of instructions waiting to be written at once: an eighth, at most 256 MiB. */
  public int outboundBytes() {
    return budget();
  }

  /** Bytes of fit answers read ahead of the round: an eighth, at most 256 MiB. */
  public int readAheadBytes() {
    return budget();
  }

  /**
   * The HTTP/2 stream window granted to each of {@code clients} clients. While the memory holds
   * {@link #TUNED_MEMORY_PER_CLIENT} per client, {@link #MAX_DEFAULT_WINDOW_BYTES}: the window is
   * left to gRPC's estimate of the bandwidth, which grows it to what a fast transfer needs and
   * never past 8 MiB. Below that, {@link #MIN_WINDOW_BYTES} (64 KiB, HTTP/2's own first window)
   * fixed: a client whose answer the server is not yet reading sends at most that much of it. A
   * fixed window made a large round take 1.3-2x as long where the memory had room for gRPC's
   * (1,000 clients of a 4 MB model, 2 GiB to 256 MiB: docs/benchmarks.md).
   */
  public int flowControlWindow(int clients) {
    if (clients < 1) {
      throw new IllegalArgumentException("clients must be at least 1, got " + clients);
    }
    return maxMemory / clients >= TUNED_MEMORY_PER_CLIENT ? MAX_DEFAULT_WINDOW_BYTES
        : MIN_WINDOW_BYTES;
  }

  /**
   * The runtime workers that fold answers for a model of {@code elements} parameters: at most
   * {@code cap}, and few enough that their partial sums (up to 2 x workers + 1 of 8 bytes a
   * parameter) fit a quarter of the memory; at least 1.
   */
  public int workers(long elements, int cap) {
    if (cap < 1) {
      throw new IllegalArgumentException("cap must be at least 1, got " + cap);
    }
    long sums = maxMemory / 4 / (8 * Math.max(1, elements));
    return (int) Math.clamp((sums - 1) / 2, 1, cap);
  }

  private int budget() {
    return (int) Math.clamp(maxMemory / 8, MIN_WINDOW_BYTES, MAX_BUDGET_BYTES);
  }
}
