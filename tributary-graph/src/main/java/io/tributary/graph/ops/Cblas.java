package io.tributary.graph.ops;

/**
 * The two CBLAS entry points {@link OpenBlasGemm} needs, behind an interface so the call can go
 * through the fastest binding the running JDK offers: on JDK 22 and later a critical downcall
 * ({@code CriticalCblas}, in {@code src/main/java22}) that hands OpenBLAS the Java arrays in place;
 * on JDK 21 JavaCPP's JNI methods, which copy each array in and out.
 *
 * <p>Arguments are exactly CBLAS's, row-major ({@code c = alpha op(a) op(b) + beta c}); callers
 * have checked them.
 */
interface Cblas {
  void sgemm(int transA, int transB, int m, int n, int k, float alpha, float[] a, int lda,
      float[] b, int ldb, float beta, float[] c, int ldc);

  void dgemm(int transA, int transB, int m, int n, int k, double alpha, double[] a, int lda,
      double[] b, int ldb, double beta, double[] c, int ldc);
}
