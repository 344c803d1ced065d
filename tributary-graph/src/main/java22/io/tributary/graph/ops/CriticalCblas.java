package io.tributary.graph.ops;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;

/**
 * {@code cblas_sgemm} and {@code cblas_dgemm} as critical downcalls (java.lang.foreign, JDK 22+)
 * that pass the Java arrays to OpenBLAS in place.
 *
 * <p>JavaCPP's JNI methods copy every array in and back out on each call; for the 2NN's
 * batch-sized products that copying cost about half as much again as the arithmetic. A critical
 * call may read the heap directly because the collector cannot move an array during it; the price
 * is that a collection waits for the product to finish, a few milliseconds at most for the sizes
 * the graph runs. Compiled with {@code --release 22} (the pom's {@code java22} profile); {@link
 * OpenBlasGemm} loads it by name only on a JDK that can.
 */
final class CriticalCblas implements Cblas {
  private static final int ROW_MAJOR = 101;
  private final MethodHandle sgemm;
  private final MethodHandle dgemm;

  /** Binds to the OpenBLAS that JavaCPP has already loaded into this process. */
  CriticalCblas() {
    Linker linker = Linker.nativeLinker();
    sgemm = linker.downcallHandle(symbol("cblas_sgemm"), FunctionDescriptor.ofVoid(JAVA_INT,
        JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_FLOAT, ADDRESS, JAVA_INT, ADDRESS,
        JAVA_INT, JAVA_FLOAT, ADDRESS, JAVA_INT), Linker.Option.critical(true));
    dgemm = linker.downcallHandle(symbol("cblas_dgemm"), FunctionDescriptor.ofVoid(JAVA_INT,
        JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_DOUBLE, ADDRESS, JAVA_INT, ADDRESS,
        JAVA_INT, JAVA_DOUBLE, ADDRESS, JAVA_INT), Linker.Option.critical(true));
  }

  private static MemorySegment symbol(String name) {
    Pointer p = Loader.addressof(name);
    if (p == null || p.isNull()) {
      throw new UnsatisfiedLinkError("symbol " + name + " not found in the loaded OpenBLAS");
    }
    return MemorySegment.ofAddress(p.address());
  }

  @Override
  public void sgemm(int transA, int transB, int m, int n, int k, float alpha, float[] a, int lda,
      float[] b, int ldb, float beta, float[] c, int ldc) {
    try {
      sgemm.invokeExact(ROW_MAJOR, transA, transB, m, n, k, alpha, MemorySegment.ofArray(a), lda,
          MemorySegment.ofArray(b), ldb, beta, MemorySegment.ofArray(c), ldc);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("cblas_sgemm downcall failed", t);
    }
  }

  @Override
  public void dgemm(int transA, int transB, int m, int n, int k, double alpha, double[] a,
      int lda, double[] b, int ldb, double beta, double[] c, int ldc) {
    try {
      dgemm.invokeExact(ROW_MAJOR, transA, transB, m, n, k, alpha, MemorySegment.ofArray(a), lda,
          MemorySegment.ofArray(b), ldb, beta, MemorySegment.ofArray(c), ldc);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("cblas_dgemm downcall failed", t);
    }
  }
}
