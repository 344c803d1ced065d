package io.tributary.data;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The FedProx Synthetic(alpha, beta) and Synthetic-IID federated datasets (Li et al. 2020),
 * generated the way {@code data/synthetic_*}{@code /generate_synthetic.py} and
 * {@code data/synthetic_iid/generate_iid.py} in {@code litian96/FedProx} do, from an explicit
 * seed.
 *
 * <p>For device k of K, with d features and C classes (K=30, d=60, C=10 by default):
 * <ul>
 *   <li>{@code n_k = (long) exp(N(4, 2)) + 50} examples, i.e. {@code int(lognormal(4, 2)) + 50};
 *   <li>non-IID: {@code u_k ~ N(0, alpha)}, {@code B_k ~ N(0, beta)}, {@code v_k[j] ~ N(B_k, 1)},
 *       {@code W_k ~ N(u_k, 1)} (d x C), {@code b_k ~ N(u_k, 1)} (C);
 *       IID: {@code v_k = 0} and one {@code W ~ N(0, 1)}, {@code b ~ N(0, 1)} for all devices;
 *   <li>{@code x ~ N(v_k, diag(j^-1.2))} for j = 1..d, i.e. coordinate j has variance
 *       {@code j^-1.2};
 *   <li>{@code y = argmax(softmax(x W_k + b_k))}.
 * </ul>
 * As in the original, the second argument of {@code N(., .)} is a standard deviation (numpy's
 * {@code scale}): alpha and beta are standard deviations, not variances. Draws happen in the
 * original's order (all n_k, then all u_k, all B_k, all v_k, then per device W_k, b_k and its
 * examples). The labels are computed in double precision from the double-precision features,
 * which are then stored as float32. Each device's examples are shuffled and the first
 * {@code (int) (0.9 * n_k)} become its training data, the rest its test data.
 *
 * <p>numpy's random streams are not reproduced: the same seed gives the same data here, not the
 * same data as the Python script.
 */
public final class Synthetic {

  /**
   * Generator settings.
   *
   * @param numDevices the number of devices K (clients)
   * @param dimension the number of features d
   * @param numClasses the number of classes C
   * @param maxTotalSamples an upper bound on the examples of all devices together; the lognormal
   *     size draw has a heavy tail, and this turns a rare huge draw into an exception instead of
   *     an out-of-memory error
   */
  public record Config(int numDevices, int dimension, int numClasses, long maxTotalSamples) {
    /** The paper's setting: 30 devices, 60 features, 10 classes, at most 2,000,000 examples. */
    public static final Config DEFAULT = new Config(30, 60, 10, 2_000_000);

    /** Checks that every count is positive. */
    public Config {
      if (numDevices < 1 || dimension < 1 || numClasses < 1 || maxTotalSamples < 1) {
        throw new IllegalArgumentException("synthetic config counts must be >= 1: " + this);
      }
      if ((long) dimension * numClasses > Integer.MAX_VALUE - 8
          || maxTotalSamples > Dataset.MAX_EXAMPLES) {
        throw new IllegalArgumentException("synthetic config too large: " + this);
      }
    }
  }

  private static final int MIN_SAMPLES = 50;
  private static final double TRAIN_FRACTION = 0.9;

  private Synthetic() {}

  /** Synthetic(alpha, beta) with the default {@link Config}. */
  public static FederatedDataset fedProx(double alpha, double beta, long seed) {
    return fedProx(alpha, beta, seed, Config.DEFAULT);
  }

  /**
   * Synthetic(alpha, beta): alpha controls how much the local models differ, beta how much the
   * local feature distributions differ.
   *
   * @param alpha standard deviation of u_k, finite and >= 0
   * @param beta standard deviation of B_k, finite and >= 0
   * @throws IllegalArgumentException for a bad alpha or beta, or when the drawn sizes exceed
   *     {@link Config#maxTotalSamples()}
   */
  public static FederatedDataset fedProx(double alpha, double beta, long seed, Config config) {
    checkScale("alpha", alpha);
    checkScale("beta", beta);
    String name = "synthetic(" + format(alpha) + "," + format(beta) + ")";
    SplittableRandom root = new SplittableRandom(seed);
    SplittableRandom random = root.split();
    SplittableRandom shuffler = root.split();
    int k = config.numDevices();
    int d = config.dimension();
    int c = config.numClasses();
    int[] sizes = drawSizes(random, config, seed);
    double[] u = new double[k];
    for (int i = 0; i < k; i++) {
      u[i] = alpha * random.nextGaussian();
    }
    double[] bigB = new double[k];
    for (int i = 0; i < k; i++) {
      bigB[i] = beta * random.nextGaussian();
    }
    double[][] v = new double[k][d];
    for (int i = 0; i < k; i++) {
      for (int j = 0; j < d; j++) {
        v[i][j] = bigB[i] + random.nextGaussian();
      }
    }
    List<Dataset> train = new ArrayList<>(k);
    List<Dataset> test = new ArrayList<>(k);
    for (int i = 0; i < k; i++) {
      double[] w = normals(random, d * c, u[i]);
      double[] b = normals(random, c, u[i]);
      addDevice(name, i, sizes[i], v[i], w, b, c, random, shuffler, train, test);
    }
    return new FederatedDataset(name, train, test);
  }

  /** Synthetic-IID with the default {@link Config}. */
  public static FederatedDataset iid(long seed) {
    return iid(seed, Config.DEFAULT);
  }

  /**
   * Synthetic-IID: every device draws x from {@code N(0, diag(j^-1.2))} and labels it with one
   * shared {@code W, b ~ N(0, 1)}.
   *
   * @throws IllegalArgumentException when the drawn sizes exceed {@link Config#maxTotalSamples()}
   */
  public static FederatedDataset iid(long seed, Config config) {
    String name = "synthetic_iid";
    SplittableRandom root = new SplittableRandom(seed);
    SplittableRandom random = root.split();
    SplittableRandom shuffler = root.split();
    int k = config.numDevices();
    int d = config.dimension();
    int c = config.numClasses();
    int[] sizes = drawSizes(random, config, seed);
    double[] w = normals(random, d * c, 0);
    double[] b = normals(random, c, 0);
    double[] zero = new double[d];
    List<Dataset> train = new ArrayList<>(k);
    List<Dataset> test = new ArrayList<>(k);
    for (int i = 0; i < k; i++) {
      addDevice(name, i, sizes[i], zero, w, b, c, random, shuffler, train, test);
    }
    return new FederatedDataset(name, train, test);
  }

  /** {@code int(lognormal(4, 2)) + 50} per device, bounded in total by the config. */
  private static int[] drawSizes(SplittableRandom random, Config config, long seed) {
    int[] sizes = new int[config.numDevices()];
    long total = 0;
    for (int i = 0; i < sizes.length; i++) {
      double draw = Math.exp(4 + 2 * random.nextGaussian());
      // Compare as doubles first: a huge draw must not overflow the long conversion.
      if (draw + MIN_SAMPLES > config.maxTotalSamples() - total) {
        throw new IllegalArgumentException(
            "synthetic seed " + seed + ": device " + i + " draws " + (long) draw + " + "
                + MIN_SAMPLES + " examples, past maxTotalSamples " + config.maxTotalSamples()
                + "; use another seed or a larger limit");
      }
      sizes[i] = (int) ((long) draw + MIN_SAMPLES);
      total += sizes[i];
    }
    return sizes;
  }

  private static double[] normals(SplittableRandom random, int n, double mean) {
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = mean + random.nextGaussian();
    }
    return out;
  }

  /** Draws one device's examples, labels them, and splits them 90/10 after a shuffle. */
  private static void addDevice(
      String name, int device, int n, double[] mean, double[] w, double[] b, int c,
      SplittableRandom random, SplittableRandom shuffler, List<Dataset> train, List<Dataset> test) {
    int d = mean.length;
    if ((long) n * d > Dataset.MAX_EXAMPLES) {
      throw new IllegalArgumentException(
          name + ": device " + device + " has " + n + " x " + d + " features, too many for one array");
    }
    double[] sd = new double[d];
    for (int j = 0; j < d; j++) {
      sd[j] = Math.sqrt(Math.pow(j + 1, -1.2));
    }
    float[] x = new float[Math.multiplyExact(n, d)];
    int[] y = new int[n];
    double[] row = new double[d];
    double[] logits = new double[c];
    for (int s = 0; s < n; s++) {
      y[s] = example(random, mean, sd, w, b, row, logits, x, s * d);
    }
    String device5 = String.format(Locale.ROOT, "f_%05d", device);
    Dataset all = Dataset.fromArrays(name + "/" + device5, x, new long[] {d}, y, c);
    int[] order = Permutations.permutation(n, shuffler);
    int nTrain = (int) (TRAIN_FRACTION * n);
    int[] trainIdx = new int[nTrain];
    int[] testIdx = new int[n - nTrain];
    System.arraycopy(order, 0, trainIdx, 0, nTrain);
    System.arraycopy(order, nTrain, testIdx, 0, n - nTrain);
    train.add(all.subset(all.name() + "/train", trainIdx));
    test.add(all.subset(all.name() + "/test", testIdx));
  }

  /**
   * {@code argmax(exp(t) / sum(exp(t)))} evaluated as the original does in float64, including
   * its edge cases: when some {@code exp(t_c)} overflows, the quotients of the overflowing classes
   * are NaN and numpy's argmax picks the first NaN; when all underflow, every quotient is NaN and
   * class 0 wins. Otherwise this is the first index of the largest quotient.
   */
  /**
   * Draws one example: its features into {@code x} from {@code at} (and {@code row}), its logits
   * into {@code logits}; returns its label. A method of its own, so that the JIT compiles this
   * small loop nest on its own rather than the whole of {@link #addDevice} while it runs (a
   * compilation that took a large share of a short run's start-up).
   */
  private static int example(SplittableRandom random, double[] mean, double[] sd, double[] w,
      double[] b, double[] row, double[] logits, float[] x, int at) {
    int d = row.length;
    int c = logits.length;
    for (int j = 0; j < d; j++) {
      row[j] = mean[j] + sd[j] * random.nextGaussian();
      x[at + j] = (float) row[j];
    }
    for (int cls = 0; cls < c; cls++) {
      double t = b[cls];
      for (int j = 0; j < d; j++) {
        t += row[j] * w[j * c + cls];
      }
      logits[cls] = t;
    }
    return softmaxArgmax(logits);
  }

  static int softmaxArgmax(double[] logits) {
    double[] e = new double[logits.length];
    double sum = 0;
    for (int i = 0; i < logits.length; i++) {
      e[i] = Math.exp(logits[i]);
      sum += e[i];
    }
    int best = 0;
    double bestP = e[0] / sum;
    if (Double.isNaN(bestP)) {
      return 0;
    }
    for (int i = 1; i < logits.length; i++) {
      double p = e[i] / sum;
      if (Double.isNaN(p)) {
        return i;
      }
      if (p > bestP) {
        best = i;
        bestP = p;
      }
    }
    return best;
  }

  private static void checkScale(String what, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(what + " must be finite and >= 0, got " + v);
    }
  }

  private static String format(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
