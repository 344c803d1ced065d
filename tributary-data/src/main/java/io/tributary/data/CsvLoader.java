package io.tributary.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Loads a labelled dataset from numeric CSV: one example per line, one column holding an integer
 * class label, every other column a feature. Input may be gzip-compressed (recognised by its magic
 * bytes) and must be UTF-8.
 *
 * <p>Fields are separated by a single delimiter character and trimmed; a field may be enclosed in
 * double quotes (with {@code ""} for a quote inside); values are trimmed inside quotes too.
 * Blank lines are skipped. Features must be
 * finite decimal numbers ({@code 1}, {@code -0.5}, {@code 2.5e-3}); they are multiplied by the
 * feature scale and stored as float32. The reading is {@link CsvClients}'s too. Labels must be whole non-negative numbers ({@code 3} or
 * {@code 3.0}). Every failure is a {@link DatasetFormatException} naming the source and line.
 *
 * <p>Gzip input may expand only as far as {@link Builder#gzipLimits} allows, counted as it is
 * decompressed, so a small compressed file cannot grow the arrays without bound.
 */
public final class CsvLoader {
  private final String name;
  private final char delimiter;
  private final boolean header;
  private final int labelIndex;
  private final String labelName;
  private final int numClasses;
  private final int maxInferredClasses;
  private final double featureScale;
  private final int maxLineLength;
  private final long maxValues;
  private final GzipLimits gzipLimits;

  private CsvLoader(Builder b) {
    this.name = b.name;
    this.delimiter = b.delimiter;
    this.header = b.header;
    this.labelIndex = b.labelIndex;
    this.labelName = b.labelName;
    this.numClasses = b.numClasses;
    this.maxInferredClasses = b.maxInferredClasses;
    this.featureScale = b.featureScale;
    this.maxLineLength = b.maxLineLength;
    this.maxValues = b.maxValues;
    this.gzipLimits = b.gzipLimits;
  }

  /** A builder with the defaults: comma, no header, label in the last column, classes inferred. */
  public static Builder builder() {
    return new Builder();
  }

  /** Loads {@code file}; the dataset takes the builder's name, or the file name if none was set. */
  public Dataset load(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return load(in, file.toString());
    }
  }

  /**
   * Loads CSV from {@code in}, naming it {@code source} in errors. Does not close {@code in}.
   *
   * @throws DatasetFormatException for malformed content, naming the source and line
   */
  public Dataset load(InputStream in, String source) throws IOException {
    CsvText rows = CsvText.open(in, gzipLimits, source, delimiter, maxLineLength);
    int columns = -1;
    int label = -1;
    if (header) {
      List<String> names = rows.next();
      if (names == null) {
        throw new DatasetFormatException(source, "empty: no header line");
      }
      columns = checkColumns(names.size(), source, rows.line());
      label = resolveLabel(names, source, rows.line());
    }
    float[] values = new float[1024];
    int[] labels = new int[256];
    int rowCount = 0;
    long used = 0;
    int maxLabel = -1;
    int limit = numClasses > 0 ? numClasses : maxInferredClasses;
    List<String> fields;
    while ((fields = rows.next()) != null) {
      long at = rows.line();
      if (columns < 0) {
        columns = checkColumns(fields.size(), source, at);
        label = indexFor(columns, source, at);
      }
      if (fields.size() != columns) {
        throw new DatasetFormatException(
            source, at, "expected " + columns + " fields, found " + fields.size());
      }
      int features = columns - 1;
      if (used + features > maxValues || rowCount == Dataset.MAX_EXAMPLES) {
        throw new DatasetFormatException(
            source, at, "more than " + maxValues + " feature values; raise maxValues to load it");
      }
      if (used + features > values.length) {
        values = Arrays.copyOf(values, (int) Math.min(Math.max(used + features, values.length * 2L),
            Integer.MAX_VALUE - 8));
      }
      if (rowCount == labels.length) {
        labels = Arrays.copyOf(labels, (int) Math.min(labels.length * 2L, Integer.MAX_VALUE - 8));
      }
      for (int col = 0; col < columns; col++) {
        String f = fields.get(col).strip();
        if (col == label) {
          labels[rowCount] = rows.label(f, "label column " + col, numClasses, limit);
          maxLabel = Math.max(maxLabel, labels[rowCount]);
        } else {
          values[(int) used++] = rows.feature(f, "column " + col, featureScale);
        }
      }
      rowCount++;
    }
    if (rowCount == 0) {
      throw new DatasetFormatException(source, "no data rows");
    }
    int classes = numClasses > 0 ? numClasses : maxLabel + 1;
    String datasetName = name != null ? name : source;
    return Dataset.fromArrays(datasetName, Arrays.copyOf(values, (int) used),
        new long[] {columns - 1}, Arrays.copyOf(labels, rowCount), classes);
  }

  private static int checkColumns(int columns, String source, long line)
      throws DatasetFormatException {
    if (columns < 2) {
      throw new DatasetFormatException(
          source, line, "need a label column and at least one feature column, found one field");
    }
    return columns;
  }

  /** The label column's index given the header's column names. */
  private int resolveLabel(List<String> names, String source, long line)
      throws DatasetFormatException {
    if (labelName == null) {
      return indexFor(names.size(), source, line);
    }
    int i = names.indexOf(labelName);
    if (i < 0) {
      throw new DatasetFormatException(
          source, line, "no column named '" + labelName + "'; columns are " + names);
    }
    return i;
  }

  private int indexFor(int columns, String source, long line) throws DatasetFormatException {
    int i = labelIndex < 0 ? columns + labelIndex : labelIndex;
    if (i < 0 || i >= columns) {
      throw new DatasetFormatException(
          source, line, "label column " + labelIndex + " is outside the " + columns + " columns");
    }
    return i;
  }

  /** Settings for a {@link CsvLoader}. */
  public static final class Builder {
    private String name;
    private char delimiter = ',';
    private boolean header;
    private int labelIndex = -1;
    private String labelName;
    private int numClasses;
    private int maxInferredClasses = 1 << 16;
    private double featureScale = 1;
    private int maxLineLength = 1 << 20;
    private long maxValues = 1L << 28;
    private GzipLimits gzipLimits = GzipLimits.defaults();

    private Builder() {}

    /** The dataset's name; defaults to the source's name. */
    public Builder name(String value) {
      this.name = Objects.requireNonNull(value, "name");
      return this;
    }

    /** The field separator; default {@code ','}. */
    public Builder delimiter(char value) {
      if (value == '"' || value == '\n' || value == '\r') {
        throw new IllegalArgumentException("delimiter cannot be a quote or line break");
      }
      this.delimiter = value;
      return this;
    }

    /** Whether the first non-blank line names the columns; default false. */
    public Builder header(boolean value) {
      this.header = value;
      return this;
    }

    /**
     * The label column by 0-based index; negative counts from the end ({@code -1}, the default,
     * is the last column).
     */
    public Builder labelColumn(int index) {
      this.labelIndex = index;
      this.labelName = null;
      return this;
    }

    /** The label column by its header name; needs {@link #header(boolean) header(true)}. */
    public Builder labelColumn(String columnName) {
      this.labelName = Objects.requireNonNull(columnName, "columnName");
      return this;
    }

    /**
     * The number of classes; labels must lie below it. 0 (the default) infers it as the largest
     * label plus one, with labels bounded by {@link #maxInferredClasses(int)}.
     */
    public Builder numClasses(int value) {
      if (value < 0) {
        throw new IllegalArgumentException("numClasses must be >= 0, got " + value);
      }
      this.numClasses = value;
      return this;
    }

    /** The bound on labels when the class count is inferred; default 65536. */
    public Builder maxInferredClasses(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("maxInferredClasses must be >= 1, got " + value);
      }
      this.maxInferredClasses = value;
      return this;
    }

    /** A factor applied to every feature, e.g. {@code 1.0 / 255}; default 1. */
    public Builder featureScale(double value) {
      if (!Double.isFinite(value)) {
        throw new IllegalArgumentException("featureScale must be finite, got " + value);
      }
      this.featureScale = value;
      return this;
    }

    /** The longest line accepted, in characters; default 1,048,576. */
    public Builder maxLineLength(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("maxLineLength must be >= 1, got " + value);
      }
      this.maxLineLength = value;
      return this;
    }

    /** The most feature values accepted in total; default 2^28 (1 GiB of float32). */
    public Builder maxValues(long value) {
      if (value < 1 || value > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("maxValues must be in [1, 2^31 - 9], got " + value);
      }
      this.maxValues = value;
      return this;
    }

    /**
     * How far gzip-compressed input may expand; default {@link GzipLimits#defaults()}, 100 times
     * the compressed bytes read and 4 GiB in all.
     */
    public Builder gzipLimits(GzipLimits value) {
      this.gzipLimits = Objects.requireNonNull(value, "gzipLimits");
      return this;
    }

    /**
     * The loader.
     *
     * @throws IllegalStateException when a label column is named but there is no header
     */
    public CsvLoader build() {
      if (labelName != null && !header) {
        throw new IllegalStateException(
            "label column '" + labelName + "' is named, which needs header(true)");
      }
      return new CsvLoader(this);
    }
  }
}
