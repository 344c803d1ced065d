package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphBuilder;
import io.tributary.graph.OpArgs;
import io.tributary.graph.ops.Gemm.Kernel;
import io.tributary.tensor.DType;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The per-run kernel: its names, its products, and executors that run on it. */
class GemmKernelTest {
  private static float[] random(long seed, int size) {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] x = new float[size];
    for (int i = 0; i < size; i++) {
      x[i] = (float) rnd.nextDouble(-1, 1);
    }
    return x;
  }

  @ParameterizedTest
  @CsvSource({"java, java, ", "' OpenBLAS ', openblas, OPENBLAS", "portable, java, PORTABLE",
      "vector, java, VECTOR"})
  void parse_knownName_givesTheKernelAndItsRecordedName(String given, String name,
      Kernel implementation) {
    GemmKernel k = GemmKernel.parse(given);

    assertThat(k.name()).isEqualTo(name);
    if (implementation != null) {
      assertThat(k.implementation()).isEqualTo(implementation);
    } else {
      assertThat(k).isSameAs(GemmKernel.JAVA).isSameAs(GemmKernel.DEFAULT);
    }
  }

  @Test
  void parse_unknownName_failsNamingTheChoices() {
    assertThatThrownBy(() -> GemmKernel.parse("cuda"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'cuda' names no matrix kernel; use java or openblas");
  }

  @Test
  void javaKernel_underSurefire_isTheVectorApiWithTheNarrowKernelWhereNative() {
    // Surefire runs this module with jdk.incubator.vector.
    assertThat(GemmKernel.JAVA.implementation()).isEqualTo(Kernel.VECTOR);
    assertThat(GemmKernel.JAVA.narrowOnVector()).isEqualTo(NarrowGemm.native8());
    assertThat(GemmKernel.of(Kernel.PORTABLE).narrowOnVector()).isFalse();
    assertThat(GemmKernel.of(Kernel.VECTOR)).isEqualTo(GemmKernel.JAVA);
  }

  @ParameterizedTest
  @CsvSource({"7, 10, 300, false", "7, 10, 300, true", "13, 33, 300, false", "5, 16, 64, true"})
  void sgemm_defaultOverloadAndEveryJavaKernel_sameBits(int m, int n, int k, boolean ta) {
    float[] a = random(1, m * k);
    float[] b = random(2, k * n);
    float[] plain = new float[m * n];
    float[] java = new float[m * n];
    float[] portable = new float[m * n];
    float[] accumulated = random(3, m * n);
    float[] accumulatedDefault = accumulated.clone();

    Gemm.sgemm(ta, false, m, n, k, a, b, plain);
    Gemm.sgemm(GemmKernel.JAVA, ta, false, m, n, k, a, b, java);
    Gemm.sgemm(GemmKernel.of(Kernel.PORTABLE), ta, false, m, n, k, a, b, portable);
    Gemm.sgemm(ta, false, m, n, k, -0.5f, a, b, 1f, accumulatedDefault);
    Gemm.sgemm(GemmKernel.of(Kernel.PORTABLE), ta, false, m, n, k, -0.5f, a, b, 1f, accumulated);

    assertThat(java).isEqualTo(plain);
    assertThat(portable).isEqualTo(plain);
    assertThat(accumulated).isEqualTo(accumulatedDefault);
  }

  private static Graph product(int m, int n, int k) {
    GraphBuilder b = new GraphBuilder();
    b.placeholder("a", DType.FLOAT32, m, k);
    b.placeholder("b", DType.FLOAT32, k, n);
    b.opNamed("y", "matmul", OpArgs.none(), "a", "b");
    return b.build();
  }

  @Test
  void graphExecutor_givenKernel_runsItsProductsOnIt() {
    assumeThat(GemmKernel.OPENBLAS.isAvailable()).as("OpenBLAS natives present").isTrue();
    int m = 13;
    int n = 33;
    int k = 300;
    float[] a = random(4, m * k);
    float[] b = random(5, k * n);
    float[] viaJava = new float[m * n];
    float[] viaOpenBlas = new float[m * n];
    Gemm.sgemm(Kernel.PORTABLE, false, false, m, n, k, a, b, viaJava);
    Gemm.sgemm(Kernel.OPENBLAS, false, false, m, n, k, a, b, viaOpenBlas);
    // OpenBLAS sums in another order: some element differs in its last digits.
    assumeThat(viaOpenBlas).isNotEqualTo(viaJava);
    Map<String, NdArray> feeds = Map.of(
        "a", NdArray.fromDoubles(DType.FLOAT32, new int[] {m, k}, toDoubles(a)),
        "b", NdArray.fromDoubles(DType.FLOAT32, new int[] {k, n}, toDoubles(b)));

    GraphExecutor openblas = new GraphExecutor(product(m, n, k), GemmKernel.OPENBLAS);
    GraphExecutor plain = new GraphExecutor(product(m, n, k));
    float[] got = openblas.run(feeds, List.of("y")).get("y").floats();
    float[] gotDefault = plain.run(feeds, List.of("y")).get("y").floats();
    float[] compiled = openblas.compile(List.of("a", "b"), List.of("y"))
        .run(feeds.get("a"), feeds.get("b"))[0].floats();

    assertThat(openblas.gemmKernel()).isEqualTo(GemmKernel.OPENBLAS);
    assertThat(plain.gemmKernel()).isEqualTo(GemmKernel.DEFAULT);
    assertThat(got).isEqualTo(viaOpenBlas);
    assertThat(compiled).isEqualTo(viaOpenBlas);
    assertThat(gotDefault).isEqualTo(viaJava);
  }

  private static double[] toDoubles(float[] x) {
    double[] d = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      d[i] = x[i];
    }
    return d;
  }
}
