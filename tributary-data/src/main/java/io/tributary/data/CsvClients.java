package io.tributary.data;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

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
 * label that is not a whole number below the class count.
 *
 * <p>The test set: of each client's n rows, {@code floor(testFraction * n)} chosen from the seed
 * are held out and pooled; the rest are the client's training examples.
 */
public final class CsvClients implements FederatedSource, Closeable {
  /** The buffer of spill reads and writes. */
  private static final int IO_BUFFER = 1 << 20;

  private final String name;
  private final int features;
  private final int numClasses;
  private final FileChannel spill;
  private final int rowBytes;
  private final long[][] runs;
  private final int[] runCounts;
  private final int[] sizes;
  private final int[][] held;
  private final Dataset test;

  private CsvClients(String name, int features, int numClasses, FileChannel spill,
      long[][] runs, int[] runCounts, int[] sizes, int[][] held, Dataset test) {
    this.name = name;
    this.features = features;
    this.numClasses = numClasses;
    this.spill = spill;
    this.rowBytes = features * Float.BYTES + Integer.BYTES;
    this.runs = runs;
    this.runCounts = runCounts;
    this.sizes = sizes;
    this.held = held;
    this.test = test;
  }

  /** A builder reading {@code file}. */
  public static Builder builder(Path file) {
    return new Builder(file);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int clients() {
    return sizes.length;
  }

  @Override
  public Dataset test() {
    return test;
  }

  @Override
  public long[] exampleShape() {
    return new long[] {features};
  }

  @Override
  public int numClasses() {
    return numClasses;
  }

  /** Client {@code k}'s rows in the file, the held-out ones included. */
  public int rows(int k) {
    return sizes[k];
  }

  /**
   * Client {@code k}'s training rows, read from the spill file.
   *
   * @throws IOException when the spill file cannot be read
   */
  @Override
  public Dataset client(int k) throws IOException {
    Objects.checkIndex(k, sizes.length);
    int[] out = held[k];
    int n = sizes[k] - out.length;
    float[] x = new float[Math.multiplyExact(n, features)];
    int[] y = new int[n];
    int position = 0;
    int skip = 0;
    int row = 0;
    ByteBuffer buf = ByteBuffer.allocate(Math.max(rowBytes, IO_BUFFER / rowBytes * rowBytes))
        .order(ByteOrder.LITTLE_ENDIAN);
    for (int r = 0; r < runCounts[k]; r++) {
      long start = runs[k][2 * r];
      long count = runs[k][2 * r + 1];
      long done = 0;
      while (done < count) {
        int take = (int) Math.min(count - done, buf.capacity() / rowBytes);
        buf.clear().limit(take * rowBytes);
        readFully(buf, (start + done) * rowBytes);
        buf.flip();
        for (int i = 0; i < take; i++, position++) {
          if (skip < out.length && out[skip] == position) {
            skip++;
            buf.position(buf.position() + rowBytes);
            continue;
          }
          buf.asFloatBuffer().get(x, row * features, features);
          buf.position(buf.position() + features * Float.BYTES);
          y[row++] = buf.getInt();
        }
        done += take;
      }
    }
    return Dataset.fromArrays(name + " client " + k, x, new long[] {features}, y, numClasses);
  }

  private void readFully(ByteBuffer buf, long at) throws IOException {
    long pos = at;
    while (buf.hasRemaining()) {
      int n = spill.read(buf, pos);
      if (n < 0) {
        throw new IOException(name + ": the spill file ended early");
      }
      pos += n;
    }
  }

  /** Deletes the spill file. */
  @Override
  public void close() throws IOException {
    spill.close();
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
      LineReader lines = lines(raw, limits, source, 1 << 20);
      String header = nextNonBlank(lines);
      if (header == null) {
        throw new DatasetFormatException(source, "empty: no header line");
      }
      List<String> names = CsvLoader.split(header, delimiter, source, lines.lineNumber());
      int col = column(names, clientColumn, "client", source, lines.lineNumber());
      java.util.Set<String> ids = new java.util.HashSet<>();
      String line;
      while ((line = nextNonBlank(lines)) != null) {
        List<String> f = CsvLoader.split(line, delimiter, source, lines.lineNumber());
        if (col < f.size()) {
          ids.add(f.get(col).strip());
        }
      }
      return ids.size();
    } catch (CharacterCodingException e) {
      throw new DatasetFormatException(source, "not valid UTF-8");
    }
  }

  private static LineReader lines(InputStream raw, GzipLimits limits, String source,
      int maxLineLength) throws IOException {
    return new LineReader(new InputStreamReader(Gzip.maybeDecompress(raw, limits, source),
        StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)), source, maxLineLength);
  }

  private static String nextNonBlank(LineReader lines) throws IOException {
    String line;
    while ((line = lines.next()) != null) {
      if (!line.isBlank()) {
        return line;
      }
    }
    return null;
  }

  private static int column(List<String> names, String wanted, String role, String source,
      long line) throws DatasetFormatException {
    int i = names.indexOf(wanted);
    if (i < 0) {
      throw new DatasetFormatException(source, line, "no " + role + " column '" + wanted
          + "'; the columns are " + clipList(names));
    }
    return i;
  }

  private static String clipList(List<String> names) {
    return names.size() <= 20 ? names.toString()
        : names.subList(0, 20).toString().replace("]", ", ... (" + names.size() + " in all)]");
  }

  /** Settings of the reader; {@link #open} reads the file. */
  public static final class Builder {
    private final Path file;
    private String clientColumn = "client";
    private String labelColumn = "label";
    private List<String> featureColumns = List.of();
    private char delimiter = ',';
    private int numClasses;
    private int maxInferredClasses = 1 << 16;
    private double testFraction = 0.2;
    private long seed;
    private int maxClients = 100_000;
    private int maxLineLength = 1 << 20;
    private GzipLimits gzipLimits = GzipLimits.defaults();
    private Path spillDirectory;

    private Builder(Path file) {
      this.file = Objects.requireNonNull(file, "file");
    }

    /** The header name of the column that names each row's client; default {@code client}. */
    public Builder clientColumn(String column) {
      this.clientColumn = Objects.requireNonNull(column, "column");
      return this;
    }

    /** The header name of the label column; default {@code label}. */
    public Builder labelColumn(String column) {
      this.labelColumn = Objects.requireNonNull(column, "column");
      return this;
    }

    /** The feature columns, in this order; default (empty) every column but client and label. */
    public Builder featureColumns(List<String> columns) {
      this.featureColumns = List.copyOf(columns);
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

    /** The class count, labels below it; 0 (the default) infers the largest label plus one. */
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

    /** The share of each client's rows held out for the test set, in (0, 1); default 0.2. */
    public Builder testFraction(double value) {
      if (!(value > 0 && value < 1)) {
        throw new IllegalArgumentException("testFraction must be in (0, 1), got " + value);
      }
      this.testFraction = value;
      return this;
    }

    /** The seed of the held-out rows; default 0. */
    public Builder seed(long value) {
      this.seed = value;
      return this;
    }

    /** The most clients accepted; default 100,000. */
    public Builder maxClients(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("maxClients must be >= 1, got " + value);
      }
      this.maxClients = value;
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

    /** Where the spill file goes; default the JVM's temporary directory. */
    public Builder spillDirectory(Path dir) {
      this.spillDirectory = dir;
      return this;
    }

    /**
     * Reads and checks the whole file once, writing its rows to the spill file.
     *
     * @throws DatasetFormatException naming the file, line and problem
     * @throws IOException when the file or the spill file cannot be read or written
     */
    public CsvClients open() throws IOException {
      Path dir = spillDirectory != null ? spillDirectory
          : Path.of(System.getProperty("java.io.tmpdir"));
      Path spillFile = Files.createTempFile(dir, "tributary-csv-", ".rows");
      // Unlinked as soon as it is open (on POSIX), so that no run leaves it behind.
      FileChannel spill = FileChannel.open(spillFile, StandardOpenOption.READ,
          StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
      try {
        return index(spill);
      } catch (IOException | RuntimeException e) {
        spill.close();
        throw e;
      }
    }

    private CsvClients index(FileChannel spill) throws IOException {
      String source = file.toString();
      try (InputStream raw = Files.newInputStream(file)) {
        LineReader lines = lines(raw, gzipLimits, source, maxLineLength);
        try {
          return index(lines, source, spill);
        } catch (CharacterCodingException e) {
          throw new DatasetFormatException(source, lines.lineNumber() + 1, "not valid UTF-8");
        }
      }
    }

    private CsvClients index(LineReader lines, String source, FileChannel spill)
        throws IOException {
      String header = nextNonBlank(lines);
      if (header == null) {
        throw new DatasetFormatException(source, "empty: no header line");
      }
      long headerLine = lines.lineNumber();
      List<String> names = CsvLoader.split(header, delimiter, source, headerLine);
      int clientCol = column(names, clientColumn, "client", source, headerLine);
      int labelCol = column(names, labelColumn, "label", source, headerLine);
      if (clientCol == labelCol) {
        throw new DatasetFormatException(source, headerLine, "the client and label columns are "
            + "both '" + clientColumn + "'");
      }
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
            + clientColumn + "' and '" + labelColumn + "'");
      }
      int features = featureCols.length;
      int rowBytes = features * Float.BYTES + Integer.BYTES;
      ByteBuffer out = ByteBuffer.allocate(Math.max(rowBytes, IO_BUFFER / rowBytes * rowBytes))
          .order(ByteOrder.LITTLE_ENDIAN);
      long spillAt = 0;
      Map<String, Integer> ids = new HashMap<>();
      List<String> order = new ArrayList<>();
      long[][] runs = new long[16][];
      int[] runCounts = new int[16];
      int[] sizes = new int[16];
      int last = -1;
      long rows = 0;
      int maxLabel = -1;
      int limit = numClasses > 0 ? numClasses : maxInferredClasses;
      String line;
      while ((line = nextNonBlank(lines)) != null) {
        long at = lines.lineNumber();
        List<String> fields = CsvLoader.split(line, delimiter, source, at);
        if (fields.size() != names.size()) {
          throw new DatasetFormatException(source, at, "expected " + names.size()
              + " fields as the header has, found " + fields.size());
        }
        String id = fields.get(clientCol);
        if (id.isEmpty()) {
          throw new DatasetFormatException(source, at, "column '" + clientColumn
              + "': the client id is empty");
        }
        Integer known = ids.get(id);
        int k;
        if (known == null) {
          if (ids.size() == maxClients) {
            throw new DatasetFormatException(source, at, "more than " + maxClients + " clients");
          }
          k = ids.size();
          ids.put(id, k);
          order.add(id);
          if (k == sizes.length) {
            runs = Arrays.copyOf(runs, k * 2);
            runCounts = Arrays.copyOf(runCounts, k * 2);
            sizes = Arrays.copyOf(sizes, k * 2);
          }
          runs[k] = new long[2];
        } else {
          k = known;
        }
        if (sizes[k] == Dataset.MAX_EXAMPLES) {
          throw new DatasetFormatException(source, at, "client '" + clip(id) + "' has more than "
              + Dataset.MAX_EXAMPLES + " rows");
        }
        int label = label(fields.get(labelCol), source, at, limit);
        maxLabel = Math.max(maxLabel, label);
        if (out.remaining() < rowBytes) {
          spillAt = write(spill, out, spillAt);
        }
        for (int f = 0; f < features; f++) {
          out.putFloat(feature(fields.get(featureCols[f]), names.get(featureCols[f]), source,
              at));
        }
        out.putInt(label);
        // Adjacent rows of one client extend its last run; a grouped file has one run each.
        if (k == last) {
          runs[k][2 * runCounts[k] - 1]++;
        } else {
          if (2 * runCounts[k] == runs[k].length) {
            runs[k] = Arrays.copyOf(runs[k], runs[k].length * 2);
          }
          runs[k][2 * runCounts[k]] = rows;
          runs[k][2 * runCounts[k] + 1] = 1;
          runCounts[k]++;
        }
        sizes[k]++;
        last = k;
        rows++;
      }
      write(spill, out, spillAt);
      if (rows == 0) {
        throw new DatasetFormatException(source, "no data rows after the header");
      }
      int clients = ids.size();
      int classes = numClasses > 0 ? numClasses : maxLabel + 1;
      int[][] held = new int[clients][];
      long testRows = 0;
      for (int k = 0; k < clients; k++) {
        held[k] = heldOut(sizes[k], testFraction,
            new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (k + 1))));
        testRows += held[k].length;
      }
      if (testRows == 0) {
        throw new DatasetFormatException(source, "no test rows: a test fraction of " + testFraction
            + " of each client's rows rounds down to 0; raise the test fraction");
      }
      if (testRows * features > Integer.MAX_VALUE - 8) {
        throw new DatasetFormatException(source, testRows + " test rows of " + features
            + " features are more than one test set holds; lower the test fraction");
      }
      CsvClients partial = new CsvClients(file.getFileName().toString(), features, classes,
          spill, Arrays.copyOf(runs, clients), Arrays.copyOf(runCounts, clients),
          Arrays.copyOf(sizes, clients), held, null);
      Dataset test = partial.heldOutRows((int) testRows);
      return new CsvClients(partial.name, features, classes, spill, partial.runs,
          partial.runCounts, partial.sizes, held, test);
    }

    private float feature(String text, String column, String source, long at)
        throws DatasetFormatException {
      if (!CsvLoader.isDecimal(text)) {
        throw new DatasetFormatException(source, at, "column '" + clip(column) + "': '"
            + clip(text) + "' is not a finite number");
      }
      float v = (float) Double.parseDouble(text);
      if (!Float.isFinite(v)) {
        throw new DatasetFormatException(source, at, "column '" + clip(column) + "': '"
            + clip(text) + "' is out of float32 range");
      }
      return v;
    }

    private int label(String text, String source, long at, int limit)
        throws DatasetFormatException {
      String where = "label column '" + clip(labelColumn) + "': '" + clip(text) + "' ";
      if (!CsvLoader.isDecimal(text)) {
        throw new DatasetFormatException(source, at, where + "is not a number");
      }
      double v = Double.parseDouble(text);
      if (v != Math.rint(v) || v < 0) {
        throw new DatasetFormatException(source, at, where + "is not a whole number >= 0");
      }
      if (v >= limit) {
        throw new DatasetFormatException(source, at, where + "is not below "
            + (numClasses > 0 ? "the class count " : "the inferred classes' bound ") + limit);
      }
      return (int) v;
    }
  }

  /** Pools every client's held-out rows, in the file's order. */
  private Dataset heldOutRows(int total) throws IOException {
    long[] at = new long[total];
    int n = 0;
    for (int k = 0; k < sizes.length; k++) {
      int position = 0;
      int next = 0;
      for (int r = 0; r < runCounts[k] && next < held[k].length; r++) {
        long start = runs[k][2 * r];
        long count = runs[k][2 * r + 1];
        while (next < held[k].length && held[k][next] < position + count) {
          at[n++] = start + (held[k][next++] - position);
        }
        position += (int) count;
      }
    }
    Arrays.sort(at);
    float[] x = new float[total * features];
    int[] y = new int[total];
    ByteBuffer buf = ByteBuffer.allocate(Math.max(rowBytes, IO_BUFFER / rowBytes * rowBytes))
        .order(ByteOrder.LITTLE_ENDIAN);
    long windowStart = -1;
    long windowRows = 0;
    for (int i = 0; i < total; i++) {
      long row = at[i];
      if (windowStart < 0 || row >= windowStart + windowRows) {
        windowStart = row;
        buf.clear();
        long end = spill.size() / rowBytes;
        windowRows = Math.min(buf.capacity() / rowBytes, end - row);
        buf.limit((int) windowRows * rowBytes);
        readFully(buf, row * rowBytes);
      }
      int offset = (int) (row - windowStart) * rowBytes;
      buf.position(offset);
      buf.asFloatBuffer().get(x, i * features, features);
      y[i] = buf.getInt(offset + features * Float.BYTES);
    }
    return Dataset.fromArrays(name + " test", x, new long[] {features}, y, numClasses);
  }

  /** {@code floor(fraction * n)} of {@code 0..n-1} chosen by {@code random}, sorted. */
  static int[] heldOut(int n, double fraction, SplittableRandom random) {
    int t = (int) Math.floor(fraction * n);
    int[] p = Permutations.permutation(n, random);
    int[] out = Arrays.copyOf(p, t);
    Arrays.sort(out);
    return out;
  }

  private static long write(FileChannel spill, ByteBuffer out, long at) throws IOException {
    out.flip();
    long pos = at;
    while (out.hasRemaining()) {
      pos += spill.write(out, pos);
    }
    out.clear();
    return pos;
  }

  private static String clip(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }
}
