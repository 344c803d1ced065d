package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.tributary.graph.ops.Gemm.Kernel;
import java.util.SplittableRandom;
import org.bytedeco.openblas.global.openblas_nolapack;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The two ways of calling OpenBLAS (critical downcall, JNI) give the same products. */
class OpenBlasGemmTest {
  @BeforeEach
  void requireOpenBlas() {
    assumeThat(Gemm.isAvailable(Kernel.OPENBLAS)).as("OpenBLAS natives present").isTrue();
  }

  @Test
  void binding_onJdk22OrLater_isCriticalDowncall() {
    // Surefire runs on the JDK that compiled the module, so the java22 profile built the class.
    assumeThat(Runtime.version().feature()).isGreaterThanOrEqualTo(22);
    assertThat(OpenBlasGemm.criticalBinding()).isPresent();
    assertThat(OpenBlasGemm.binding()).isEqualTo("critical downcall");
  }

  @ParameterizedTest(name = "{0}x{1}x{2} ta={3} tb={4}")
  @CsvSource({"32,200,784,false,false", "784,200,32,true,false", "32,200,200,false,true",
      "7,5,3,true,true", "1,1,1,false,false"})
  void sgemm_criticalAndJni_giveIdenticalResults(int m, int n, int k, boolean ta, boolean tb) {
    assumeThat(OpenBlasGemm.criticalBinding()).isPresent();
    SplittableRandom rnd = new SplittableRandom(3);
    float[] a = new float[m * k];
    float[] b = new float[k * n];
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) rnd.nextDouble(-1, 1);
    }
    for (int i = 0; i < b.length; i++) {
      b[i] = (float) rnd.nextDouble(-1, 1);
    }
    float[] viaJni = new float[m * n];
    float[] viaCritical = new float[m * n];
    OpenBlasGemm.sgemm(OpenBlasGemm.jni(), ta, tb, m, n, k, a, b, viaJni);
    OpenBlasGemm.sgemm(OpenBlasGemm.criticalBinding().orElseThrow(), ta, tb, m, n, k, a, b,
        viaCritical);
    assertThat(viaCritical).containsExactly(viaJni);
    assertThat(viaCritical).isNotEqualTo(new float[m * n]);
  }

  @Test
  void dgemm_criticalAndJni_giveIdenticalResults() {
    assumeThat(OpenBlasGemm.criticalBinding()).isPresent();
    double[] a = {1, 2, 3, 4, 5, 6};
    double[] b = {7, 8, 9, 10, 11, 12};
    double[] viaJni = new double[4];
    double[] viaCritical = new double[4];
    OpenBlasGemm.dgemm(OpenBlasGemm.jni(), false, false, 2, 2, 3, a, b, viaJni);
    OpenBlasGemm.dgemm(OpenBlasGemm.criticalBinding().orElseThrow(), false, false, 2, 2, 3, a, b,
        viaCritical);
    assertThat(viaJni).containsExactly(58, 64, 139, 154);
    assertThat(viaCritical).containsExactly(58, 64, 139, 154);
  }

  @Test
  void sgemm_alphaBeta_criticalAndJniGiveIdenticalResults() {
    assumeThat(OpenBlasGemm.criticalBinding()).isPresent();
    SplittableRandom rnd = new SplittableRandom(5);
    int m = 784;
    int n = 200;
    int k = 32;
    float[] a = new float[k * m];
    float[] b = new float[k * n];
    float[] c = new float[m * n];
    for (float[] x : new float[][] {a, b, c}) {
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) rnd.nextDouble(-1, 1);
      }
    }
    float[] viaJni = c.clone();
    float[] viaCritical = c.clone();
    OpenBlasGemm.sgemm(OpenBlasGemm.jni(), true, false, m, n, k, -0.01f, a, b, 1f, viaJni);
    OpenBlasGemm.sgemm(OpenBlasGemm.criticalBinding().orElseThrow(), true, false, m, n, k, -0.01f,
        a, b, 1f, viaCritical);
    assertThat(viaCritical).containsExactly(viaJni);
    assertThat(viaCritical).isNotEqualTo(c);
  }

  @ParameterizedTest(name = "{0}x{1}x{2} ta={3} tb={4} beta={5}: {6}")
  @CsvSource({"32,200,784,false,false,0,true", "10,512,512,false,false,0,true",
      "33,200,784,false,false,0,false", "32,200,200,false,false,0,false",
      "32,200,784,true,false,0,false", "32,200,784,false,true,0,false",
      "32,200,784,false,false,1,false"})
  void transposesResult_fewRowsTimesLargeB_only(int m, int n, int k, boolean ta, boolean tb,
      float beta, boolean expected) {
    assertThat(OpenBlasGemm.transposesResult(ta, tb, m, n, k, beta)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}x{1}x{2}")
  @CsvSource({"32,200,784", "1,300,300", "17,257,301"})
  void sgemm_transposedRoute_matchesTheDirectCall(int m, int n, int k) {
    assumeThat(OpenBlasGemm.transposesResult(false, false, m, n, k, 0f)).isTrue();
    SplittableRandom rnd = new SplittableRandom(m + n + k);
    float[] a = new float[m * k];
    float[] b = new float[k * n];
    for (float[] x : new float[][] {a, b}) {
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) rnd.nextDouble(-1, 1);
      }
    }
    float[] routed = new float[m * n];
    java.util.Arrays.fill(routed, Float.NaN);
    OpenBlasGemm.sgemm(false, false, m, n, k, 0.5f, a, b, 0f, routed);
    // The JNI binding's own call, c = 0.5 a b, without the transposed route.
    float[] direct = new float[m * n];
    OpenBlasGemm.jni().sgemm(openblas_nolapack.CblasNoTrans, openblas_nolapack.CblasNoTrans, m, n,
        k, 0.5f, a, k, b, n, 0f, direct, n);
    for (int i = 0; i < direct.length; i++) {
      assertThat(routed[i]).as("c[%d]", i).isCloseTo(direct[i], org.assertj.core.data.Offset
          .offset(1e-4f));
    }
  }
}
