package io.tributary.simulation;

import io.tributary.data.FederatedSource;
import io.tributary.data.GeneratedPopulation;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The {@code --dataset} value: which data a simulation trains on.
 *
 * <p>Short forms: {@code digits}, {@code synthetic:ALPHA,BETA}, {@code synthetic-iid},
 * {@code fashion-mnist}, {@code generated[:FEATURES,CLASSES,EXAMPLES]}, and the user's own data:
 * {@code csv:PATH} (one CSV file, a column naming each row's client), {@code parquet:PATH} (the
 * same as one Parquet file) and {@code npz-dir:DIR} (one {@code .npz} per client). Data given in code ({@link Provided}) show as {@code code:NAME}.
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
    /**
     * Checks the scales.
     *
     * @throws IllegalArgumentException when ALPHA or BETA is negative or not finite
     */
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

  /** The share of each client's examples held out for the test set by default. */
  double DEFAULT_TEST_FRACTION = 0.2;

  /**
   * A table file of the user's: one row per example, a column naming each row's client, a label
   * column and feature columns ({@code csv:PATH} or {@code parquet:PATH}).
   */
  sealed interface Table extends DatasetSpec permits Csv, Parquet {
    /** The file. */
    Path file();

    /** The name of the column that names each row's client. */
    String clientColumn();

    /** The name of the label column. */
    String labelColumn();

    /** The feature columns in order, or empty for every other column. */
    List<String> featureColumns();

    /** The share of each client's rows held out for the test set, in (0, 1). */
    double testFraction();

    /** This file with other columns. */
    Table withColumns(String client, String label, List<String> features);

    /** This file with another test fraction. */
    Table withTestFraction(double fraction);
  }

  /**
   * The user's CSV file ({@link io.tributary.data.CsvClients}): a header, a column naming each
   * row's client, a label column and feature columns; gzip accepted. One client per client id;
   * {@code testFraction} of each client's rows, chosen from the run's seed, are the test set.
   *
   * @param file the file
   * @param clientColumn the header name of the client column
   * @param labelColumn the header name of the label column
   * @param featureColumns the feature columns in order, or empty for every other column
   * @param testFraction the share of each client's rows held out, in (0, 1)
   */
  record Csv(Path file, String clientColumn, String labelColumn, List<String> featureColumns,
      double testFraction) implements Table {
    /** Checks the columns and the fraction. */
    public Csv {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(clientColumn, "clientColumn");
      Objects.requireNonNull(labelColumn, "labelColumn");
      featureColumns = List.copyOf(featureColumns);
      if (clientColumn.equals(labelColumn)) {
        throw new IllegalArgumentException("dataset csv: the client and label columns are both '"
            + clientColumn + "'");
      }
      checkFraction(testFraction);
    }

    /** {@code file} with the columns {@code client} and {@code label}, every other a feature. */
    public Csv(Path file) {
      this(file, "client", "label", List.of(), DEFAULT_TEST_FRACTION);
    }

    @Override
    public Csv withColumns(String client, String label, List<String> features) {
      return new Csv(file, client, label, features, testFraction);
    }

    @Override
    public Csv withTestFraction(double fraction) {
      return new Csv(file, clientColumn, labelColumn, featureColumns, fraction);
    }

    @Override
    public String toString() {
      return "csv:" + file;
    }
  }

  /**
   * The user's Parquet file ({@link io.tributary.data.ParquetClients}), read as a CSV file is:
   * a column naming each row's client, a label column and numeric feature columns. One client
   * per client id; {@code testFraction} of each client's rows, chosen from the run's seed, are
   * the test set.
   *
   * @param file the file
   * @param clientColumn the client column's name
   * @param labelColumn the label column's name
   * @param featureColumns the feature columns in order, or empty for every other column
   * @param testFraction the share of each client's rows held out, in (0, 1)
   */
  record Parquet(Path file, String clientColumn, String labelColumn,
      List<String> featureColumns, double testFraction) implements Table {
    /** Checks the columns and the fraction. */
    public Parquet {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(clientColumn, "clientColumn");
      Objects.requireNonNull(labelColumn, "labelColumn");
      featureColumns = List.copyOf(featureColumns);
      if (clientColumn.equals(labelColumn)) {
        throw new IllegalArgumentException("dataset parquet: the client and label columns are "
            + "both '" + clientColumn + "'");
      }
      checkFraction(testFraction);
    }

    /** {@code file} with the columns {@code client} and {@code label}, every other a feature. */
    public Parquet(Path file) {
      this(file, "client", "label", List.of(), DEFAULT_TEST_FRACTION);
    }

    @Override
    public Parquet withColumns(String client, String label, List<String> features) {
      return new Parquet(file, client, label, features, testFraction);
    }

    @Override
    public Parquet withTestFraction(double fraction) {
      return new Parquet(file, clientColumn, labelColumn, featureColumns, fraction);
    }

    @Override
    public String toString() {
      return "parquet:" + file;
    }
  }

  /**
   * The user's directory of {@code .npz} files ({@link io.tributary.data.NpzClients}), one per
   * client with {@code x} and {@code y}; {@code test.npz}, when there, is the test set, else
   * {@code testFraction} of each client's examples are.
   *
   * @param dir the directory
   * @param testFraction the share of each client's examples held out without a {@code test.npz}
   */
  record NpzDir(Path dir, double testFraction) implements DatasetSpec {
    /** Checks the fraction. */
    public NpzDir {
      Objects.requireNonNull(dir, "dir");
      checkFraction(testFraction);
    }

    @Override
    public String toString() {
      return "npz-dir:" + dir;
    }
  }

  /**
   * Data the user built in code ({@link SimulationSettings.Builder#data}): recorded by name only,
   * so a resumed run must be given them again, and a cluster's workers cannot rebuild them.
   *
   * @param source the clients and the test set
   */
  record Provided(FederatedSource source) implements DatasetSpec {
    /** Checks that there is a source. */
    public Provided {
      Objects.requireNonNull(source, "source");
    }

    @Override
    public String toString() {
      return "code:" + source.name();
    }
  }

  /** Whether the data are the user's own (a file, a directory, or given in code). */
  default boolean userData() {
    return this instanceof Table || this instanceof NpzDir || this instanceof Provided;
  }

  /** Whether the data come already split by device, so that {@code --partition} does not apply. */
  default boolean naturallyPartitioned() {
    return this instanceof Synthetic || this instanceof SyntheticIid || this instanceof Generated
        || userData();
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
    String lower = text.strip().toLowerCase(Locale.ROOT);
    for (String prefix : List.of("csv:", "parquet:", "npz-dir:", "code:")) {
      if (lower.startsWith(prefix)) {
        String rest = text.strip().substring(prefix.length());
        if (rest.isEmpty()) {
          throw new IllegalArgumentException("dataset '" + text + "': " + prefix
              + " takes a path, " + prefix + (prefix.equals("npz-dir:") ? "DIR" : "PATH"));
        }
        return switch (prefix) {
          case "csv:" -> new Csv(Path.of(rest));
          case "parquet:" -> new Parquet(Path.of(rest));
          case "npz-dir:" -> new NpzDir(Path.of(rest), DEFAULT_TEST_FRACTION);
          default -> throw new IllegalArgumentException("dataset '" + text + "' was given in "
              + "code (SimulationSettings.Builder.data), which no file records: give the data "
              + "again with Builder.data(...)");
        };
      }
    }
    String s = lower;
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
        + "synthetic:ALPHA,BETA, synthetic-iid, fashion-mnist, generated:FEATURES,CLASSES,"
        + "EXAMPLES, csv:PATH, parquet:PATH or npz-dir:DIR");
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

  private static void checkFraction(double f) {
    if (!(f > 0 && f < 1)) {
      throw new IllegalArgumentException("dataset: the test fraction must be in (0, 1), got "
          + f);
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
