package io.tributary.graph.ops;

import java.util.Locale;
import java.util.Optional;

/**
 * The matrix-product kernel a run's graphs compute with: a value chosen per run and handed to
 * whatever executes graphs ({@link GraphExecutor#GraphExecutor(io.tributary.graph.Graph,
 * GemmKernel)}, {@link io.tributary.graph.local.GraphBinder#standard(GemmKernel)}), not a JVM-wide
 * setting. Two arithmetics, each recorded by its {@link #name()}:
 *
 * <ul>
 *   <li>{@link #JAVA} ({@code java}, the default): each float32 element of a product is one chain
 *       of fused multiply-adds over k in ascending order, on the Vector API when {@code
 *       jdk.incubator.vector} is present ({@link Gemm.Kernel#VECTOR}, with the narrow kernel for
 *       products of 8 to 16 columns) and in plain loops otherwise ({@link Gemm.Kernel#PORTABLE}),
 *       the same bits either way;
 *   <li>{@link #OPENBLAS} ({@code openblas}): OpenBLAS, which sums in its own order, so its
 *       results differ from the Java kernels' in the last digits; it needs the natives and native
 *       access ({@link Gemm.Kernel#OPENBLAS}).
 * </ul>
 *
 * <p>{@link #of(Gemm.Kernel)} pins one implementation ({@code vector} or {@code portable} still
 * compute the {@code java} bits). {@link #withThreads(int)} lets a large product or convolution
 * use more than the caller's thread: each element of a result is still one chain of sums in the
 * same order, computed by one thread, so the bits do not depend on the thread count. Values are
 * immutable and compare by implementation and thread count.
 */
public final class GemmKernel {
  private static final boolean VECTOR_PRESENT = ModuleLayer.boot()
      .findModule("jdk.incubator.vector").isPresent();

  /** The Java kernels: the default, whose results do not depend on how the JVM was started. */
  public static final GemmKernel JAVA =
      new GemmKernel(VECTOR_PRESENT ? Gemm.Kernel.VECTOR : Gemm.Kernel.PORTABLE);

  /** OpenBLAS, held to one thread; other bits than {@link #JAVA}. */
  public static final GemmKernel OPENBLAS = new GemmKernel(Gemm.Kernel.OPENBLAS);

  /** The kernel a run gets when it names none: {@link #JAVA}. */
  public static final GemmKernel DEFAULT = JAVA;

  /** The most threads {@link #withThreads(int)} accepts. */
  public static final int MAX_THREADS = 256;

  private final Gemm.Kernel implementation;
  private final int threads;
  /**
   * Whether float32 products of 8 to 16 columns (B not transposed) run on {@link NarrowGemm}: on
   * the Vector API implementation where 8-lane vectors are native, since there a packed kernel's
   * fixed cost is most of the work. The same bits as the other Java kernels.
   */
  private final boolean narrow;

  private GemmKernel(Gemm.Kernel implementation) {
    this(implementation, 1);
  }

  private GemmKernel(Gemm.Kernel implementation, int threads) {
    this.implementation = implementation;
    this.threads = threads;
    this.narrow = implementation == Gemm.Kernel.VECTOR && VECTOR_PRESENT && NarrowGemm.native8();
  }

  /**
   * The kernel that runs products on {@code implementation}: {@link #OPENBLAS} for {@link
   * Gemm.Kernel#OPENBLAS}; for the two Java implementations a {@code java} kernel pinned to it
   * (the Vector API one fails at its first product, naming the missing module, when {@code
   * jdk.incubator.vector} is absent; see {@link #requireAvailable()}).
   */
  public static GemmKernel of(Gemm.Kernel implementation) {
    return switch (implementation) {
      case OPENBLAS -> OPENBLAS;
      case VECTOR -> JAVA.implementation == Gemm.Kernel.VECTOR ? JAVA
          : new GemmKernel(Gemm.Kernel.VECTOR);
      case PORTABLE -> JAVA.implementation == Gemm.Kernel.PORTABLE ? JAVA
          : new GemmKernel(Gemm.Kernel.PORTABLE);
    };
  }

  /**
   * The kernel named {@code name}, ignoring case and surrounding blanks: {@code java} or {@code
   * openblas} (the {@link #name()}s a run records), or {@code vector} or {@code portable} (one
   * Java implementation, as {@link #of(Gemm.Kernel)}).
   *
   * @throws IllegalArgumentException when {@code name} names no kernel
   */
  public static GemmKernel parse(String name) {
    String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
    return switch (n) {
      case "java" -> JAVA;
      case "openblas" -> OPENBLAS;
      case "vector" -> of(Gemm.Kernel.VECTOR);
      case "portable" -> of(Gemm.Kernel.PORTABLE);
      default -> throw new IllegalArgumentException("'" + name + "' names no matrix kernel;"
          + " use java or openblas (or vector or portable, two implementations of java)");
    };
  }

  /**
   * The arithmetic, as a run records it: {@code "java"} for the Java kernels, whose results are
   * the same bits with or without the Vector API, or {@code "openblas"}.
   */
  public String name() {
    return implementation == Gemm.Kernel.OPENBLAS ? "openblas" : "java";
  }

  /**
   * How many threads a large product or convolution may use: the caller's and {@code threads() -
   * 1} workers of the JVM's one team for split products (kept hot while products keep coming),
   * or of the common fork-join pool while that team runs another caller's product. 1 (the
   * default) keeps every product on the caller's thread.
   */
  public int threads() {
    return threads;
  }

  /**
   * This kernel with large float32 products and convolutions split over {@code threads} threads
   * (the caller's and {@code threads - 1} workers, see {@link #threads()}).
   * Each thread computes whole elements of the result, in the same order as one thread would, so
   * the results are the same bits for every thread count. OpenBLAS products stay on the caller's
   * thread.
   *
   * @throws IllegalArgumentException when {@code threads} is not between 1 and {@link
   *     #MAX_THREADS}
   */
  public GemmKernel withThreads(int threads) {
    if (threads < 1 || threads > MAX_THREADS) {
      throw new IllegalArgumentException("threads must be between 1 and " + MAX_THREADS
          + ", got " + threads);
    }
    return threads == this.threads ? this : new GemmKernel(implementation, threads);
  }

  /** The implementation products run on. */
  public Gemm.Kernel implementation() {
    return implementation;
  }

  /**
   * Whether float32 products of 8 to 16 columns (B not transposed) run on the Vector API's narrow
   * kernel: true for the Vector API implementation where 8-lane vectors are native.
   */
  public boolean narrowOnVector() {
    return narrow;
  }

  /** True when this kernel can run in this JVM (asking about OpenBLAS loads its natives). */
  public boolean isAvailable() {
    return Gemm.isAvailable(implementation);
  }

  /** Why this kernel cannot run in this JVM, or empty when it can. */
  public Optional<String> unavailableReason() {
    return Gemm.unavailableReason(implementation);
  }

  /**
   * This kernel, when it can run in this JVM.
   *
   * @throws IllegalStateException naming the reason when it cannot
   */
  public GemmKernel requireAvailable() {
    Optional<String> why = unavailableReason();
    if (why.isPresent()) {
      throw new IllegalStateException("matrix kernel " + implementation.name()
          .toLowerCase(Locale.ROOT) + " is not available: " + why.get());
    }
    return this;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GemmKernel k && k.implementation == implementation
        && k.threads == threads;
  }

  @Override
  public int hashCode() {
    return implementation.hashCode() * 31 + threads;
  }

  /** {@link #name()}, with the implementation when it says more. */
  @Override
  public String toString() {
    String impl = implementation.name().toLowerCase(Locale.ROOT);
    String t = threads == 1 ? "" : ", " + threads + " threads";
    return impl.equals(name()) && t.isEmpty() ? name() : name() + " (" + impl + t + ")";
  }
}
