package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SyntheticTest {

  @ParameterizedTest
  @CsvSource({"0,0", "0.5,0.5", "1,1"})
  void fedProx_defaults_thirtyDevicesSplit90To10(double alpha, double beta) {
    FederatedDataset f = Synthetic.fedProx(alpha, beta, 2024);
    assertThat(f.numClients()).isEqualTo(30);
    assertThat(f.hasTest()).isTrue();
    assertThat(f.numClasses()).isEqualTo(10);
    for (int k = 0; k < 30; k++) {
      Dataset train = f.train().get(k);
      Dataset test = f.test().get(k);
      int n = train.size() + test.size();
      assertThat(n).isGreaterThanOrEqualTo(50);
      assertThat(train.size()).isEqualTo((int) (0.9 * n));
      assertThat(train.exampleShape()).containsExactly(60);
      assertThat(train.elementSpec()).isEqualTo("<x=float32[?,60],y=int64[?]>");
      assertThat(train.name()).isEqualTo(String.format("%s/f_%05d/train", f.name(), k));
    }
  }

  @Test
  void fedProx_name_showsParameters() {
    assertThat(Synthetic.fedProx(1, 1, 0).name()).isEqualTo("synthetic(1,1)");
    assertThat(Synthetic.fedProx(0.5, 0, 0).name()).isEqualTo("synthetic(0.5,0)");
    assertThat(Synthetic.iid(0).name()).isEqualTo("synthetic_iid");
  }

  @Test
  void generate_sameSeed_identicalOtherSeedDifferent() {
    FederatedDataset a = Synthetic.fedProx(1, 1, 77);
    FederatedDataset b = Synthetic.fedProx(1, 1, 77);
    FederatedDataset c = Synthetic.fedProx(1, 1, 78);
    for (int k = 0; k < 30; k++) {
      assertThat(a.train().get(k).features()).isEqualTo(b.train().get(k).features());
      assertThat(a.test().get(k).labels()).isEqualTo(b.test().get(k).labels());
    }
    assertThat(a.trainSizes()).isNotEqualTo(c.trainSizes());
    assertThat(Synthetic.iid(5).pooledTrain().features())
        .isEqualTo(Synthetic.iid(5).pooledTrain().features());
  }

  @Test
  void sizes_manyDevices_followLognormal4_2Plus50() {
    Synthetic.Config cfg = new Synthetic.Config(4001, 1, 2, 100_000_000);
    FederatedDataset f = Synthetic.iid(3, cfg);
    int[] extra = new int[cfg.numDevices()];
    for (int k = 0; k < extra.length; k++) {
      extra[k] = f.train().get(k).size() + f.test().get(k).size() - 50;
      assertThat(extra[k]).isNotNegative();
    }
    Arrays.sort(extra);
    // int(lognormal(4, 2)) has median floor(e^4) = 54; the median of 4001 draws lies within
    // e^(4 +- 0.2) with overwhelming probability.
    assertThat(extra[2000]).isBetween(44, 67);
    // The 84th percentile of lognormal(4, 2) is e^6 = 403.
    assertThat(extra[(int) (0.8413 * 4001)]).isBetween(330, 490);
  }

  @Test
  void iid_features_meanZeroVarianceJPowMinus1point2() {
    Dataset all = Synthetic.iid(11, new Synthetic.Config(60, 60, 10, 1_000_000)).pooledTrain();
    int n = all.size();
    float[] x = all.features().toFloatArray();
    assertThat(n).isGreaterThan(5000);
    for (int j : new int[] {0, 1, 9, 59}) {
      double sum = 0;
      double sq = 0;
      for (int i = 0; i < n; i++) {
        double v = x[i * 60 + j];
        sum += v;
        sq += v * v;
      }
      double mean = sum / n;
      double var = sq / n - mean * mean;
      double expected = Math.pow(j + 1, -1.2);
      assertThat(var).as("variance of x_%d", j + 1).isBetween(0.9 * expected, 1.1 * expected);
      assertThat(Math.abs(mean)).isLessThan(5 * Math.sqrt(expected / n));
    }
  }

  /** The mean over a device's features and examples, which estimates B_k (plus N(0, 1/60)). */
  private static double[] deviceMeans(FederatedDataset f) {
    double[] out = new double[f.numClients()];
    for (int k = 0; k < out.length; k++) {
      float[] x = f.train().get(k).features().toFloatArray();
      double s = 0;
      for (float v : x) {
        s += v;
      }
      out[k] = s / x.length;
    }
    return out;
  }

  private static double std(double[] v) {
    double m = Arrays.stream(v).average().orElseThrow();
    return Math.sqrt(Arrays.stream(v).map(a -> (a - m) * (a - m)).sum() / (v.length - 1));
  }

  @Test
  void fedProx_beta_isStandardDeviationOfDeviceMeans() {
    // B_k ~ N(0, beta) with beta a standard deviation: for beta = 3 device means spread with
    // std about sqrt(9 + 1/60) = 3.0 (+-0.18 for 150 devices), where a variance reading would
    // give sqrt(3) = 1.73.
    Synthetic.Config cfg = new Synthetic.Config(150, 60, 10, 10_000_000);
    assertThat(std(deviceMeans(Synthetic.fedProx(0, 3, 5, cfg)))).isBetween(2.4, 3.6);
    // beta = 0: every v_k[j] ~ N(0, 1), so device means spread by about sqrt(1/60) = 0.13.
    assertThat(std(deviceMeans(Synthetic.fedProx(0, 0, 5, cfg)))).isBetween(0.09, 0.17);
    assertThat(std(deviceMeans(Synthetic.iid(5, cfg)))).isLessThan(0.05);
  }

  @Test
  void classMix_nonIidDevices_differMuchMoreThanIid() {
    // With one shared W, b, IID devices label alike: pooled class frequencies match per device.
    // Non-IID devices each draw their own W_k, b_k, so their class mixes differ much more.
    Synthetic.Config cfg = new Synthetic.Config(40, 60, 10, 10_000_000);
    double iidSpread = classMixSpread(Synthetic.iid(9, cfg));
    double niidSpread = classMixSpread(Synthetic.fedProx(1, 1, 9, cfg));
    assertThat(niidSpread).isGreaterThan(2 * iidSpread);
  }

  /** Mean over devices of the total-variation distance between device and pooled class mixes. */
  private static double classMixSpread(FederatedDataset f) {
    long[] pooled = f.pooledTrain().labelCounts();
    long total = Arrays.stream(pooled).sum();
    double sum = 0;
    for (Dataset d : f.train()) {
      long[] c = d.labelCounts();
      double tv = 0;
      for (int i = 0; i < c.length; i++) {
        tv += Math.abs((double) c[i] / d.size() - (double) pooled[i] / total);
      }
      sum += tv / 2;
    }
    return sum / f.numClients();
  }

  @Test
  void generate_hugeSizeDraw_throwsInsteadOfAllocating() {
    Synthetic.Config tiny = new Synthetic.Config(30, 60, 10, 500);
    assertThatThrownBy(() -> Synthetic.fedProx(1, 1, 1, tiny))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("synthetic seed 1")
        .hasMessageContaining("past maxTotalSamples 500");
  }

  @ParameterizedTest
  @CsvSource({"-1,1,alpha", "1,-0.1,beta", "NaN,1,alpha", "1,Infinity,beta"})
  void fedProx_badScale_throws(double alpha, double beta, String which) {
    assertThatThrownBy(() -> Synthetic.fedProx(alpha, beta, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(which + " must be finite and >= 0");
  }

  @Test
  void config_nonPositive_throws() {
    assertThatThrownBy(() -> new Synthetic.Config(0, 60, 10, 10))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "1, 3, 2|1",
      "5, 5, 1|0",
      "-1000, -2000, -1500|0",
      "800, 900, 1|0",
      "1, 800, 900|1",
      "1, 2, 710, 3|2",
      "-800, -900, -750|0"})
  void softmaxArgmax_logits_matchesNumpySoftmaxThenArgmax(String logits, int expected) {
    double[] t = Arrays.stream(logits.split(",")).mapToDouble(s -> Double.parseDouble(s.strip()))
        .toArray();
    // 800 and 900 both overflow exp: the quotients are NaN and numpy's argmax returns the first
    // NaN; all-underflow makes 0/0 = NaN everywhere, so class 0.
    assertThat(Synthetic.softmaxArgmax(t)).isEqualTo(expected);
  }

  @Test
  void pooled_lists_concatenateClients() {
    FederatedDataset f = Synthetic.fedProx(0, 0, 3);
    assertThat(f.pooledTrain().size()).isEqualTo(Arrays.stream(f.trainSizes()).sum());
    assertThat(f.pooledTest().size())
        .isEqualTo(f.test().stream().mapToInt(Dataset::size).sum());
    assertThatThrownBy(() -> new FederatedDataset("x", f.train(), List.of(f.test().get(0))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("30 training clients but 1 test clients");
  }
}
