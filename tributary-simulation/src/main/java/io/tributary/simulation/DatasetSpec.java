package io.tributary.simulation;

import io.tributary.data.GeneratedPopulation;
import java.util.Locale;

/**
 * The {@code --dataset} value: which data a simulation trains on.
 *
 * <p>Short forms: {@code digits}, {@code synthetic:ALPHA,BETA}, {@code synthetic-iid},
 * {@code fashion-mnist} and {@code generated[:FEATURES,CLASSES,EXAMPLES]}.
 */
public sealed interface DatasetSpec {
  /** The embedded 8x8 UCI digits, pooled and then partitioned among the clients. */
  record Digits() implements DatasetSpec {
    @Override
    public String toString() {
      return "digits";
    }
  }

  /** FedProx's Synthetic(alpha, beta): one device per client, partitioned by construction. */
  record Synthetic(double alpha, double beta) implements DatasetSpec {
    public Synthetic {
      checkScale("ALPHA", alpha);
      checkScale("BETA", beta);
    }

    @Override
    public String toString() {
      return "synthetic:" + plain(alpha) + "," + plain(beta);
    }
  }

  /** FedProx's Synthetic-IID: one device per client, all drawn from one distribution. */
  record SyntheticIid() implements DatasetSpec {
    @Override
    public String toString() {
      return "synthetic-iid";
    }
  }

  /** Fashion-MNIST from IDX files, pooled and then partitioned among the clients. */
  record FashionMnist() implements DatasetSpec {
    @Override
    public String toString() {
      return "fashion-mnist";
    }
  }

  /**
   * A population made on demand ({@link GeneratedPopulation}): any number of
   * clients, none of whose data is held, for runs of millions of clients.
   *
   * @param features the features per example
   * @param classes the number of classes
   * @param examples each client's number of examples
   */
  record Generated(int features, int classes, int examples) implements DatasetSpec {
    /** {@code generated} alone: 60 features, 10 classes, 10 examples per client. */
    public static final Generated DEFAULT = new Generated(60, 10, 10);

    /**
     * Checks the sizes as the generator does.
     *
     * @throws IllegalArgumentException naming the size out of range
     */
    public Generated {
      new GeneratedPopulation(features, classes, examples, 0);
    }

    @Override
    public String toString() {
      return "generated:" + features + "," + classes + "," + examples;
    }
  }

  /** Whether the data come already split by device, so that {@code --partition} does not apply. */
  default boolean naturallyPartitioned() {
    return this instanceof Synthetic || this instanceof SyntheticIid || this instanceof Generated;
  }

  /** Whether the clients' data are made on demand rather than held. */
  default boolean generated() {
    return this instanceof Generated;
  }

  /** Whether the data are read from files ({@code --data-dir}). */
  default boolean fileBased() {
    return this instanceof FashionMnist;
  }

  /**
   * Reads the short form.
   *
   * @throws IllegalArgumentException naming the value and the forms accepted
   */
  static DatasetSpec parse(String text) {
    String s = text.strip().toLowerCase(Locale.ROOT);
    switch (s) {
      case "digits":
        return new Digits();
      case "synthetic-iid":
        return new SyntheticIid();
      case "fashion-mnist":
        return new FashionMnist();
      case "generated":
        return Generated.DEFAULT;
      default:
        break;
    }
    if (s.startsWith("synthetic:")) {
      String[] parts = s.substring("synthetic:".length()).split(",", -1);
      if (parts.length != 2) {
        throw new IllegalArgumentException("dataset '" + text
            + "': synthetic takes two numbers, synthetic:ALPHA,BETA (e.g. synthetic:1,1)");
      }
      return new Synthetic(number(text, parts[0]), number(text, parts[1]));
    }
    if (s.startsWith("generated:")) {
      String[] parts = s.substring("generated:".length()).split(",", -1);
      if (parts.length != 3) {
        throw new IllegalArgumentException("dataset '" + text + "': generated takes three "
            + "counts, generated:FEATURES,CLASSES,EXAMPLES (e.g. generated:99999,10,1)");
      }
      return new Generated(count(text, parts[0]), count(text, parts[1]), count(text, parts[2]));
    }
    throw new IllegalArgumentException("unknown dataset '" + text + "': use digits, "
        + "synthetic:ALPHA,BETA, synthetic-iid, fashion-mnist or generated:FEATURES,CLASSES,"
        + "EXAMPLES");
  }

  private static double number(String text, String part) {
    try {
      return Double.parseDouble(part.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("dataset '" + text + "': '" + part.strip()
          + "' is not a number", e);
    }
  }

  private static int count(String text, String part) {
    try {
      return Integer.parseInt(part.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("dataset '" + text + "': '" + part.strip()
          + "' is not a whole number", e);
    }
  }

  private static void checkScale(String name, double v) {
    if (!(v >= 0) || !Double.isFinite(v)) {
      throw new IllegalArgumentException("synthetic " + name + " must be finite and >= 0, got "
          + v);
    }
  }

  /** {@code 1} rather than {@code 1.0}, so that the canonical form reads like the input. */
  private static String plain(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
