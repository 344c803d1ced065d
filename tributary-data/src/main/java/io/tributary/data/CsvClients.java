package io.tributary.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The clients of one CSV file with a header: a client column names each row's client, a label
 * column its class, and the feature columns (by default every other column) its features. Rows of
 * a client need not be adjacent; clients are numbered in the order their first row appears.
 *
 * <p>Large files stream: {@link Builder#open} reads the file once (gzip recognised by its magic
 * bytes, expansion bounded by {@link GzipLimits}), checks every row, and writes the rows as
 * float32 to a spill file that is deleted when closed; {@link #client(int)} then reads one
 * client's rows from it. Only the index (a few numbers per client) and the test set are held.
 * A {@link DatasetFormatException} names the file, the line and what is wrong: a ragged row, a
 * feature that is not a finite number, a missing client or label column, an empty client id, a
 * label that is not a whole number below the class count. The CSV reading is {@link
 * CsvLoader}'s; the spilled rows are {@link ParquetClients}'s too.
 *
 * <p>The test set: of each client's n rows, {@code floor(testFraction * n)} chosen from the seed
 * are held out and pooled; the rest are the client's training examples.
 */
public final class CsvClients extends SpilledClients {
  private CsvClients(ClientRows rows) {
    super(rows);
  }

  /** A builder reading {@code file}. */
  public static Builder builder(Path file) {
    return new Builder(file);
  }

  /**
   * The number of clients in the file: one pass that reads only up to the client column of each
   * row and checks nothing else.
   *
   * @throws DatasetFormatException when the file has no header or no such column
   * @throws IOException when it cannot be read
   */
  public static int countClients(Path file, String clientColumn, char delimiter,
      GzipLimits limits) throws IOException {
    String source = file.toString();
    try (InputStream raw = Files.newInputStream(file)) {
      CsvText text = CsvText.open(raw, limits, source, delimiter, 1 << 20);
      List<String> names = text.next();
      if (names == null) {
        throw new DatasetFormatException(source, "empty: no header line");
      }
      int col = column(names, clientColumn, "client", source, text.line());
      Set<String> ids = new HashSet<>();
      List<String> f;
      while ((f = text.next()) != null) {
        if (col < f.size()) {
          ids.add(f.get(col));
        }
      }
      return ids.size();
    }
  }

  /** The index of column {@code wanted} among {@code names}, or an error listing them. */
  static int column(List<String> names, String wanted, String role, String source,
      long line) throws DatasetFormatException {
    int i = names.indexOf(wanted);
    if (i < 0) {
      throw new DatasetFormatException(source, line, "no " + role + " column '" + wanted
          + "'; the columns are " + clipList(names));
    }
    return i;
  }

  static String clipList(List<String> names) {
    return names.size() <= 20 ? names.toString()
        : names.subList(0, 20).toString().replace("]", ", ... (" + names.size() + " in all)]");
  }

  /** Settings of the reader: the CSV ones and {@link ClientTableOptions}; {@link #open} reads. */
  public static final class Builder extends ClientTableOptions.Builder<Builder> {
    private final Path file;
    private char delimiter = ',';
    private int maxLineLength = 1 << 20;
    private GzipLimits gzipLimits = GzipLimits.defaults();

    private Builder(Path file) {
      this.file = Objects.requireNonNull(file, "file");
    }

    @Override
    protected Builder self() {
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

    /** The longest line accepted, in characters; default 1,048,576. */
    public Builder maxLineLength(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("maxLineLength must be >= 1, got " + value);
      }
      this.maxLineLength = value;
      return this;
    }

    /** How far gzip-compressed input may expand; default {@link GzipLimits#defaults()}. */
    public Builder gzipLimits(GzipLimits value) {
      this.gzipLimits = Objects.requireNonNull(value, "gzipLimits");
      return this;
    }

    /**
     * Reads and checks the whole file once, writing its rows to the spill file.
     *
     * @throws DatasetFormatException naming the file, line and problem
     * @throws IOException when the file or the spill file cannot be read or written
     */
    public CsvClients open() throws IOException {
      ClientTableOptions o = options();
      String clientColumn = o.clientColumn();
      String labelColumn = o.labelColumn();
      String source = file.toString();
      try (InputStream raw = Files.newInputStream(file)) {
        CsvText text = CsvText.open(raw, gzipLimits, source, delimiter, maxLineLength);
        List<String> names = text.next();
        if (names == null) {
          throw new DatasetFormatException(source, "empty: no header line");
        }
        long headerLine = text.line();
        int clientCol = column(names, clientColumn, "client", source, headerLine);
        int labelCol = column(names, labelColumn, "label", source, headerLine);
        if (clientCol == labelCol) {
          throw new DatasetFormatException(source, headerLine, "the client and label columns "
              + "are both '" + clientColumn + "'");
        }
        int[] featureCols = featureColumns(o, names, clientCol, labelCol, source, headerLine);
        String[] featureNames = new String[featureCols.length];
        for (int f = 0; f < featureCols.length; f++) {
          featureNames[f] = "column '" + ClientRows.clip(names.get(featureCols[f])) + "'";
        }
        String labelName = "label column '" + ClientRows.clip(labelColumn) + "'";
        int limit = o.labelLimit();
        float[] x = new float[featureCols.length];
        try (ClientRows.Writer out = new ClientRows.Writer(source, featureCols.length,
            o.maxClients(), o.spillDirectoryOrNull())) {
          List<String> fields;
          while ((fields = text.next()) != null) {
            long at = text.line();
            if (fields.size() != names.size()) {
              throw new DatasetFormatException(source, at, "expected " + names.size()
                  + " fields as the header has, found " + fields.size());
            }
            String id = fields.get(clientCol);
            if (id.isEmpty()) {
              throw new DatasetFormatException(source, at, "column '" + clientColumn
                  + "': the client id is empty");
            }
            int label = text.label(fields.get(labelCol), labelName, o.numClasses(), limit);
            for (int f = 0; f < x.length; f++) {
              x[f] = text.feature(fields.get(featureCols[f]), featureNames[f], 1);
            }
            out.add(id, label, x, at);
          }
          return new CsvClients(out.finish(file.getFileName().toString(), o.numClasses(),
              o.testFraction(), o.seed()));
        }
      }
    }

    private static int[] featureColumns(ClientTableOptions o, List<String> names, int clientCol,
        int labelCol, String source, long headerLine) throws DatasetFormatException {
      List<String> featureColumns = o.featureColumns();
      int[] featureCols;
      if (featureColumns.isEmpty()) {
        featureCols = new int[names.size() - 2];
        for (int c = 0, f = 0; c < names.size(); c++) {
          if (c != clientCol && c != labelCol) {
            featureCols[f++] = c;
          }
        }
      } else {
        featureCols = new int[featureColumns.size()];
        for (int f = 0; f < featureCols.length; f++) {
          featureCols[f] = column(names, featureColumns.get(f), "feature", source, headerLine);
          if (featureCols[f] == clientCol || featureCols[f] == labelCol) {
            throw new DatasetFormatException(source, headerLine, "feature column '"
                + featureColumns.get(f) + "' is the client or label column");
          }
        }
      }
      if (featureCols.length == 0) {
        throw new DatasetFormatException(source, headerLine, "no feature columns besides '"
            + o.clientColumn() + "' and '" + o.labelColumn() + "'");
      }
      return featureCols;
    }
  }
}
