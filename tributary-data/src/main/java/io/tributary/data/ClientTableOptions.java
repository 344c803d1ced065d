package io.tributary.data;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a reader of a table of clients' rows ({@link CsvClients}, {@link ParquetClients}) is told
 * beyond the format: which columns hold the client, the label and the features, the classes, the
 * held-out share and its seed, the most clients, and where the spill file goes.
 *
 * @param clientColumn the column that names each row's client
 * @param labelColumn the label column
 * @param featureColumns the feature columns, in this order; empty for every column but the client
 *     and label columns
 * @param numClasses the class count, labels below it; 0 infers the largest label plus one
 * @param maxInferredClasses the bound on labels when the class count is inferred
 * @param testFraction the share of each client's rows held out for the test set, in (0, 1)
 * @param seed the seed of the held-out rows
 * @param maxClients the most clients accepted
 * @param spillDirectory where the spill file goes; empty for the JVM's temporary directory
 */
public record ClientTableOptions(String clientColumn, String labelColumn,
    List<String> featureColumns, int numClasses, int maxInferredClasses, double testFraction,
    long seed, int maxClients, Optional<Path> spillDirectory) {
  /**
   * Checks every option as the builder's setters do, with the same messages.
   *
   * @throws IllegalArgumentException naming the option that is out of range
   */
  public ClientTableOptions {
    Objects.requireNonNull(clientColumn, "column");
    Objects.requireNonNull(labelColumn, "column");
    featureColumns = List.copyOf(featureColumns);
    checkNumClasses(numClasses);
    checkMaxInferredClasses(maxInferredClasses);
    checkTestFraction(testFraction);
    checkMaxClients(maxClients);
    Objects.requireNonNull(spillDirectory, "spillDirectory");
  }

  /** The label bound a reader checks against: the class count, or the inferred classes' bound. */
  int labelLimit() {
    return numClasses > 0 ? numClasses : maxInferredClasses;
  }

  /** The spill directory, or null for the JVM's temporary directory. */
  Path spillDirectoryOrNull() {
    return spillDirectory.orElse(null);
  }

  private static void checkNumClasses(int value) {
    if (value < 0) {
      throw new IllegalArgumentException("numClasses must be >= 0, got " + value);
    }
  }

  private static void checkMaxInferredClasses(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("maxInferredClasses must be >= 1, got " + value);
    }
  }

  private static void checkTestFraction(double value) {
    if (!(value > 0 && value < 1)) {
      throw new IllegalArgumentException("testFraction must be in (0, 1), got " + value);
    }
  }

  private static void checkMaxClients(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("maxClients must be >= 1, got " + value);
    }
  }

  /**
   * The setters a table reader's builder shares; each checks its value at once, so a bad one
   * fails where it is set.
   *
   * @param <B> the reader's own builder, which each setter returns
   */
  public abstract static class Builder<B extends Builder<B>> {
    private String clientColumn = "client";
    private String labelColumn = "label";
    private List<String> featureColumns = List.of();
    private int numClasses;
    private int maxInferredClasses = 1 << 16;
    private double testFraction = 0.2;
    private long seed;
    private int maxClients = 100_000;
    private Path spillDirectory;

    /** For the readers' builders. */
    protected Builder() {}

    /** This builder, as the reader's type. */
    protected abstract B self();

    /** The options set so far. */
    public ClientTableOptions options() {
      return new ClientTableOptions(clientColumn, labelColumn, featureColumns, numClasses,
          maxInferredClasses, testFraction, seed, maxClients,
          Optional.ofNullable(spillDirectory));
    }

    /** The column that names each row's client; default {@code client}. */
    public B clientColumn(String column) {
      this.clientColumn = Objects.requireNonNull(column, "column");
      return self();
    }

    /** The label column; default {@code label}. */
    public B labelColumn(String column) {
      this.labelColumn = Objects.requireNonNull(column, "column");
      return self();
    }

    /** The feature columns, in this order; default (empty) every column but client and label. */
    public B featureColumns(List<String> columns) {
      this.featureColumns = List.copyOf(columns);
      return self();
    }

    /** The class count, labels below it; 0 (the default) infers the largest label plus one. */
    public B numClasses(int value) {
      checkNumClasses(value);
      this.numClasses = value;
      return self();
    }

    /** The bound on labels when the class count is inferred; default 65536. */
    public B maxInferredClasses(int value) {
      checkMaxInferredClasses(value);
      this.maxInferredClasses = value;
      return self();
    }

    /** The share of each client's rows held out for the test set, in (0, 1); default 0.2. */
    public B testFraction(double value) {
      checkTestFraction(value);
      this.testFraction = value;
      return self();
    }

    /** The seed of the held-out rows; default 0. */
    public B seed(long value) {
      this.seed = value;
      return self();
    }

    /** The most clients accepted; default 100,000. */
    public B maxClients(int value) {
      checkMaxClients(value);
      this.maxClients = value;
      return self();
    }

    /** Where the spill file goes; default (null) the JVM's temporary directory. */
    public B spillDirectory(Path dir) {
      this.spillDirectory = dir;
      return self();
    }
  }
}
