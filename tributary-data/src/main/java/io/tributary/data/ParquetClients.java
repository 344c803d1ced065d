package io.tributary.data;

import dev.hardwood.InputFile;
import dev.hardwood.metadata.LogicalType;
import dev.hardwood.metadata.PhysicalType;
import dev.hardwood.metadata.RepetitionType;
import dev.hardwood.reader.ParquetFileReader;
import dev.hardwood.reader.RowReader;
import dev.hardwood.schema.ColumnProjection;
import dev.hardwood.schema.FileSchema;
import dev.hardwood.schema.SchemaNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The clients of one Parquet file: a client column names each row's client, a label column its
 * class, and the feature columns (by default every other column) its features, as {@link
 * CsvClients} reads them from CSV. Rows of a client need not be adjacent; clients are numbered in
 * the order their first row appears.
 *
 * <p>The file is read row by row by <a href="https://hardwood.dev">Hardwood</a>, a Parquet
 * reader without Hadoop: uncompressed, gzip and Snappy pages (pandas' and pyarrow's default) are
 * read as they are; Zstandard, LZ4 and Brotli pages need that codec's jar on the class path. As
 * with CSV, every row is checked and written as float32 to a spill file deleted when closed, so
 * only the index and the test set are held, whatever the file's size.
 *
 * <p>Columns: the client column is a string ({@code BYTE_ARRAY}) or an integer; the label an
 * integer, or a float holding a whole number; a feature an integer ({@code INT32}, {@code
 * INT64}), {@code FLOAT} or {@code DOUBLE}. A {@link DatasetFormatException} names the file and,
 * before any row is read, a missing column or one of another type (a string feature, a
 * timestamp, a nested or repeated column); while reading, the row and column of a null, a
 * feature that is not finite (NaN, infinity), or a label that is not a whole number below the
 * class count.
 *
 * <pre>{@code
 * try (ParquetClients data = ParquetClients.builder(Path.of("readings.parquet"))
 *     .clientColumn("device").labelColumn("activity").open()) {
 *   SimulationSettings s = SimulationSettings.builder().data(data).rounds(20).build();
 * }
 * }</pre>
 */
public final class ParquetClients extends SpilledClients {
  private ParquetClients(ClientRows rows) {
    super(rows);
  }

  /** A builder reading {@code file}. */
  public static Builder builder(Path file) {
    return new Builder(file);
  }

  /**
   * The number of clients in the file: one pass over the client column alone.
   *
   * @throws DatasetFormatException when the file is not Parquet, or has no such column, or it is
   *     of another type than a string or an integer
   * @throws IOException when it cannot be read
   */
  public static int countClients(Path file, String clientColumn) throws IOException {
    String source = file.toString();
    try (Reading r = Reading.open(file)) {
      Column client = Column.of(r.schema, clientColumn, Role.CLIENT, source);
      Set<String> ids = new HashSet<>();
      r.rows(List.of(clientColumn), (row, at) -> ids.add(client.id(row, source, at)));
      return ids.size();
    }
  }

  /** What a column is for, which decides the types it may have. */
  private enum Role {
    CLIENT("client", "a string or an integer"),
    LABEL("label", "an integer or a float"),
    FEATURE("feature", "an integer, FLOAT or DOUBLE");

    final String word;
    final String wanted;

    Role(String word, String wanted) {
      this.word = word;
      this.wanted = wanted;
    }
  }

  /** A column of the file checked for its role: its name and physical type. */
  private record Column(String name, PhysicalType type, String label) {
    static Column of(FileSchema schema, String name, Role role, String source)
        throws DatasetFormatException {
      SchemaNode node;
      try {
        node = schema.getField(name);
      } catch (IllegalArgumentException e) {
        node = null;
      }
      if (node == null) {
        List<String> names = new ArrayList<>();
        for (SchemaNode n : schema.getRootNode().children()) {
          names.add(n.name());
        }
        throw new DatasetFormatException(source, "no " + role.word + " column '" + name
            + "'; the columns are " + CsvClients.clipList(names));
      }
      String label = (role == Role.LABEL ? "label column '" : "column '")
          + ClientRows.clip(name) + "'";
      if (!(node instanceof SchemaNode.PrimitiveNode p)) {
        throw new DatasetFormatException(source, label + " is a group (a struct, list or "
            + "map); the " + role.word + " column must be " + role.wanted);
      }
      if (p.repetitionType() == RepetitionType.REPEATED) {
        throw new DatasetFormatException(source, label + " is repeated; the " + role.word
            + " column must hold one value a row");
      }
      LogicalType logical = p.logicalType();
      boolean plainNumber = logical == null || logical instanceof LogicalType.IntType;
      boolean ok = switch (p.type()) {
        case INT32, INT64 -> plainNumber;
        case FLOAT, DOUBLE -> role != Role.CLIENT && logical == null;
        case BYTE_ARRAY -> role == Role.CLIENT
            && (logical == null || logical instanceof LogicalType.StringType);
        default -> false;
      };
      if (!ok) {
        throw new DatasetFormatException(source, label + " has type " + p.type()
            + (logical == null ? "" : " (" + logical + ")") + ", which this reader does not "
            + "take: the " + role.word + " column must be " + role.wanted);
      }
      return new Column(name, p.type(), label);
    }

    /** This column's value in the current row as a client id. */
    String id(RowReader row, String source, long at) throws DatasetFormatException {
      requireValue(row, source, at);
      return switch (type) {
        case INT32 -> Integer.toString(row.getInt(name));
        case INT64 -> Long.toString(row.getLong(name));
        default -> row.getString(name);
      };
    }

    /** This column's value in the current row as a number. */
    double number(RowReader row, String source, long at) throws DatasetFormatException {
      requireValue(row, source, at);
      return switch (type) {
        case INT32 -> row.getInt(name);
        case INT64 -> row.getLong(name);
        case FLOAT -> row.getFloat(name);
        default -> row.getDouble(name);
      };
    }

    private void requireValue(RowReader row, String source, long at)
        throws DatasetFormatException {
      if (row.isNull(name)) {
        throw new DatasetFormatException(source, "row " + at + ": " + this.label + " is null");
      }
    }
  }

  /** One row's use. */
  @FunctionalInterface
  private interface RowUse {
    void accept(RowReader row, long at) throws IOException;
  }

  /** An open file and its schema; Hardwood's failures on a damaged file become ours. */
  private static final class Reading implements AutoCloseable {
    private final String source;
    private final ParquetFileReader reader;
    private final FileSchema schema;

    private Reading(String source, ParquetFileReader reader, FileSchema schema) {
      this.source = source;
      this.reader = reader;
      this.schema = schema;
    }

    static Reading open(Path file) throws IOException {
      String source = file.toString();
      if (!Files.isRegularFile(file)) {
        throw new java.io.FileNotFoundException(source + ": no such file");
      }
      ParquetFileReader reader;
      try {
        reader = ParquetFileReader.open(InputFile.of(file));
      } catch (IOException | RuntimeException e) {
        // Hardwood reports a file that is not Parquet (or is cut short) in its own words and
        // types; the caller gets one line naming the file.
        throw new DatasetFormatException(source, "not a Parquet file this reader reads: "
            + e.getMessage());
      }
      try {
        return new Reading(source, reader, reader.getFileSchema());
      } catch (RuntimeException e) {
        reader.close();
        throw new DatasetFormatException(source, "its Parquet schema cannot be read: "
            + e.getMessage());
      }
    }

    /** Calls {@code use} on every row, numbered from 1, reading only {@code columns}. */
    void rows(List<String> columns, RowUse use) throws IOException {
      long at = 0;
      try (RowReader rows = reader.buildRowReader()
          .projection(ColumnProjection.columns(columns.toArray(String[]::new))).build()) {
        while (rows.hasNext()) {
          rows.next();
          use.accept(rows, ++at);
        }
      } catch (RuntimeException e) {
        throw new DatasetFormatException(source, "row " + (at + 1) + ": cannot be read: "
            + e.getMessage());
      }
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }

  /** Settings of the reader (all {@link ClientTableOptions}'s); {@link #open} reads the file. */
  public static final class Builder extends ClientTableOptions.Builder<Builder> {
    private final Path file;

    private Builder(Path file) {
      this.file = Objects.requireNonNull(file, "file");
    }

    @Override
    protected Builder self() {
      return this;
    }

    /**
     * Reads and checks the whole file once, writing its rows to the spill file.
     *
     * @throws DatasetFormatException naming the file, and the column or row and problem
     * @throws IOException when the file or the spill file cannot be read or written
     */
    public ParquetClients open() throws IOException {
      ClientTableOptions o = options();
      String clientColumn = o.clientColumn();
      String labelColumn = o.labelColumn();
      String source = file.toString();
      if (clientColumn.equals(labelColumn)) {
        throw new DatasetFormatException(source, "the client and label columns are both '"
            + clientColumn + "'");
      }
      try (Reading r = Reading.open(file)) {
        Column client = Column.of(r.schema, clientColumn, Role.CLIENT, source);
        Column label = Column.of(r.schema, labelColumn, Role.LABEL, source);
        List<Column> features = new ArrayList<>();
        for (String name : featureNames(o, r.schema, source)) {
          features.add(Column.of(r.schema, name, Role.FEATURE, source));
        }
        List<String> read = new ArrayList<>(List.of(clientColumn, labelColumn));
        features.forEach(f -> read.add(f.name()));
        int numClasses = o.numClasses();
        int limit = o.labelLimit();
        float[] x = new float[features.size()];
        try (ClientRows.Writer out = new ClientRows.Writer(source, x.length, o.maxClients(),
            o.spillDirectoryOrNull())) {
          r.rows(read, (row, at) -> {
            String id = client.id(row, source, at);
            if (id.isEmpty()) {
              throw new DatasetFormatException(source, "row " + at + ": " + client.label()
                  + ": the client id is empty");
            }
            try {
              double y = label.number(row, source, at);
              int c = ClientRows.label(y, label.label(), number(y), numClasses, limit, source,
                  -1);
              for (int f = 0; f < x.length; f++) {
                Column col = features.get(f);
                double v = col.number(row, source, at);
                x[f] = ClientRows.feature(v, col.label(), number(v), source, -1);
              }
              out.add(id, c, x, at);
            } catch (DatasetFormatException e) {
              throw e.line() >= 0 || e.problem().startsWith("row ") ? e
                  : new DatasetFormatException(source, "row " + at + ": " + e.problem());
            }
          });
          return new ParquetClients(out.finish(file.getFileName().toString(), numClasses,
              o.testFraction(), o.seed()));
        }
      }
    }

    private static List<String> featureNames(ClientTableOptions o, FileSchema schema,
        String source) throws DatasetFormatException {
      String clientColumn = o.clientColumn();
      String labelColumn = o.labelColumn();
      List<String> featureColumns = o.featureColumns();
      if (!featureColumns.isEmpty()) {
        for (String f : featureColumns) {
          if (f.equals(clientColumn) || f.equals(labelColumn)) {
            throw new DatasetFormatException(source, "feature column '" + f
                + "' is the client or label column");
          }
        }
        return featureColumns;
      }
      List<String> names = new ArrayList<>();
      for (SchemaNode n : schema.getRootNode().children()) {
        if (!n.name().equals(clientColumn) && !n.name().equals(labelColumn)) {
          names.add(n.name());
        }
      }
      if (names.isEmpty()) {
        throw new DatasetFormatException(source, "no feature columns besides '" + clientColumn
            + "' and '" + labelColumn + "'");
      }
      return names;
    }

    /** A value as an error shows it: {@code 3}, not {@code 3.0}, for a whole number. */
    private static String number(double v) {
      return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
          : Double.toString(v);
    }
  }
}
