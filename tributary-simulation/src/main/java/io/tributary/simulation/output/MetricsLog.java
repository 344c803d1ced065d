package io.tributary.simulation.output;

import io.tributary.simulation.History;
import io.tributary.simulation.RoundRecord;
import io.tributary.simulation.RunFileException;
import io.tributary.simulation.RunFiles;
import java.io.BufferedInputStream;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code metrics.jsonl}: one JSON object per round, written and flushed as each round ends, so
 * that a run stopped early still leaves every finished round on disk. Keys come in a fixed order;
 * {@code nonfinite_metrics}, {@code failure_reasons} and {@code algorithm_metrics} appear only
 * when there is something to say.
 */
public final class MetricsLog implements Closeable {
  private final BufferedWriter out;

  /** One {@code "key": value} pair of a line this log wrote. */
  private static final Pattern PAIR =
      Pattern.compile("\"([a-z_]+)\": (\"[^\"]*\"|[^,}]+)");
  /** Lines longer than this were not written here. */
  private static final int MAX_LINE = 1 << 16;

  /** Creates {@code file}, which must not exist yet. */
  public MetricsLog(Path file) throws IOException {
    this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE);
  }

  private MetricsLog(BufferedWriter out) {
    this.out = out;
  }

  /** The log of a resumed run, with the lines of its earlier rounds, in order. */
  public record Resumed(MetricsLog log, List<String> kept) {}

  /** The {@code "round": N} of a line. */
  private static final Pattern ROUND = Pattern.compile("^\\{\"round\": (\\d{1,9})[,}]");

  /**
   * Opens the log of a run resumed after round {@code rounds}: keeps its first {@code rounds}
   * lines, cutting off what later rounds (and a line half-written when the run was killed)
   * added, and appends after them.
   *
   * @throws IOException when the file holds fewer rounds, or lines this log did not write
   */
  public static Resumed resume(Path file, int rounds) throws IOException {
    Head head = head(file, rounds);
    // Cut off later rounds and a line half-written when the run was killed.
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(head.end());
      ch.force(true);
    }
    BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
        StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    return new Resumed(new MetricsLog(w), head.lines());
  }

  /**
   * The first {@code rounds} rounds of the log in {@code file}, read without changing it.
   *
   * @throws IOException when the file holds fewer rounds, or lines this log did not write
   */
  public static History read(Path file, int rounds) throws IOException {
    List<RoundRecord> out = new ArrayList<>();
    for (String line : head(file, rounds).lines()) {
      out.add(parse(line));
    }
    return new History(out);
  }

  /** The first lines of a log and the byte offset just after them. */
  private record Head(List<String> lines, long end) {}

  /**
   * The first {@code rounds} lines of {@code file}, each checked to be that round's, reading at
   * most {@link #MAX_LINE} bytes a line so that a hostile file cannot fill the heap.
   *
   * @throws IOException when the file holds fewer complete rounds, or lines this log did not
   *     write
   */
  private static Head head(Path file, int rounds) throws IOException {
    List<String> kept = new ArrayList<>();
    long end = 0;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
      byte[] line = new byte[MAX_LINE];
      while (kept.size() < rounds) {
        long start = end;
        int length = 0;
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
          if (length == MAX_LINE) {
            throw new RunFileException("line " + (kept.size() + 1) + " is longer than "
                + MAX_LINE + " bytes: not a metrics log of tributary simulate");
          }
          line[length++] = (byte) b;
        }
        if (b < 0) {
          throw new RunFileException("holds " + kept.size() + " complete rounds but the"
              + " checkpoint is at round " + rounds);
        }
        end += length + 1;
        String text = new String(line, 0, length, StandardCharsets.UTF_8);
        Matcher m = ROUND.matcher(text);
        if (!m.find() || Integer.parseInt(m.group(1)) != kept.size() + 1) {
          throw new RunFileException("line " + (kept.size() + 1) + " (byte " + start
              + ") is not round " + (kept.size() + 1) + " of a run's metrics");
        }
        kept.add(text);
      }
    }
    return new Head(kept, end);
  }

  /** A line {@link #toJson} wrote, read back. */
  public static RoundRecord parse(String line) throws RunFileException {
    Map<String, String> v = new HashMap<>();
    Matcher m = PAIR.matcher(line);
    while (m.find()) {
      v.putIfAbsent(m.group(1), m.group(2)); // the first: a later string may quote a key
    }
    try {
      return new RoundRecord(integer(v, "round"), real(v, "train_loss"),
          real(v, "train_accuracy"), real(v, "test_loss"), real(v, "test_accuracy"),
          real(v, "client_loss"), integer(v, "clients"), Long.parseLong(value(v, "examples")),
          integer(v, "failures"), real(v, "seconds"), Long.parseLong(value(v, "bytes_up")),
          Long.parseLong(value(v, "bytes_down")), reasons(line),
          v.containsKey("nonfinite_metrics") ? integer(v, "nonfinite_metrics") : 0,
          algorithmMetrics(line));
    } catch (IllegalArgumentException e) {
      throw new RunFileException("a line of " + RunFiles.METRICS + " is not a round of"
          + " tributary simulate (" + e.getMessage() + "): " + line);
    }
  }

  /** The strings of the line's {@code failure_reasons} array, as {@link Json#string} wrote them. */
  private static List<String> reasons(String line) {
    String key = "\"failure_reasons\": [";
    int at = line.indexOf(key);
    List<String> out = new ArrayList<>();
    if (at < 0) {
      return out;
    }
    int[] i = {at + key.length()};
    while (i[0] < line.length() && line.charAt(i[0]) == '"') {
      out.add(string(line, i));
      if (line.startsWith(", ", i[0])) {
        i[0] += 2;
      }
    }
    if (!line.startsWith("]", i[0])) {
      throw new IllegalArgumentException("failure_reasons is not an array of strings");
    }
    return out;
  }

  /** The line's {@code algorithm_metrics} object, as {@link #toJson} wrote it. */
  private static SequencedMap<String, Double> algorithmMetrics(String line) {
    String key = "\"algorithm_metrics\": {";
    int at = line.indexOf(key);
    SequencedMap<String, Double> out = new TreeMap<>();
    if (at < 0) {
      return out;
    }
    int[] i = {at + key.length()};
    while (i[0] < line.length() && line.charAt(i[0]) == '"') {
      String name = string(line, i);
      if (!line.startsWith(": ", i[0])) {
        throw new IllegalArgumentException("algorithm_metrics: no value for " + name);
      }
      int from = i[0] + 2;
      int to = from;
      while (to < line.length() && line.charAt(to) != ',' && line.charAt(to) != '}') {
        to++;
      }
      out.put(name, real(line.substring(from, to).strip()));
      i[0] = line.startsWith(", ", to) ? to + 2 : to;
    }
    if (!line.startsWith("}", i[0])) {
      throw new IllegalArgumentException("algorithm_metrics is not an object of numbers");
    }
    return out;
  }

  /** The JSON string starting at {@code i[0]}; {@code i[0]} moves past its closing quote. */
  private static String string(String line, int[] at) {
    int i = at[0];
    StringBuilder b = new StringBuilder();
    for (i++; i < line.length() && line.charAt(i) != '"'; i++) {
      char c = line.charAt(i);
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (i + 1 >= line.length()) {
        throw new IllegalArgumentException("a string ends inside an escape");
      }
      char e = line.charAt(++i);
      switch (e) {
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'u' -> {
          if (i + 5 > line.length()) {
            throw new IllegalArgumentException("a string ends inside an escape");
          }
          b.append((char) Integer.parseInt(line.substring(i + 1, i + 5), 16));
          i += 4;
        }
        default -> b.append(e);
      }
    }
    if (i >= line.length()) {
      throw new IllegalArgumentException("a string is not closed");
    }
    at[0] = i + 1;
    return b.toString();
  }

  private static String value(Map<String, String> v, String key) {
    String s = v.get(key);
    if (s == null) {
      throw new IllegalArgumentException("no " + key);
    }
    return s.strip();
  }

  private static int integer(Map<String, String> v, String key) {
    return Integer.parseInt(value(v, key));
  }

  private static double real(Map<String, String> v, String key) {
    return real(value(v, key));
  }

  private static double real(String s) {
    return switch (s) {
      case "null" -> Double.NaN;
      case "\"NaN\"" -> Double.NaN;
      case "\"Infinity\"" -> Double.POSITIVE_INFINITY;
      case "\"-Infinity\"" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(s);
    };
  }

  /** Appends the round's line. */
  public void write(RoundRecord r) throws IOException {
    writeLine(toJson(r));
  }

  /** Appends one JSON object, which must be on one line. */
  public void writeLine(String jsonObject) throws IOException {
    out.write(jsonObject);
    out.write('\n');
    out.flush();
  }

  /** The round as one line of JSON, keys in a fixed order. */
  public static String toJson(RoundRecord r) {
    return "{\"round\": " + r.round()
        + ", \"train_loss\": " + Json.number(r.trainLoss())
        + ", \"train_accuracy\": " + Json.number(r.trainAccuracy())
        + ", \"test_loss\": " + Json.number(r.testLoss())
        + ", \"test_accuracy\": " + Json.number(r.testAccuracy())
        + ", \"client_loss\": " + Json.number(r.clientLoss())
        + ", \"clients\": " + r.clients()
        + ", \"examples\": " + r.examples()
        + ", \"failures\": " + r.failures()
        + ", \"seconds\": " + Json.number(r.seconds())
        + ", \"bytes_up\": " + r.bytesUp()
        + ", \"bytes_down\": " + r.bytesDown()
        + extras(r) + "}";
  }

  /** Keys present only when there is something to say, so a clean run's lines are unchanged. */
  private static String extras(RoundRecord r) {
    StringBuilder s = new StringBuilder();
    if (r.nonFiniteMetrics() > 0) {
      s.append(", \"nonfinite_metrics\": ").append(r.nonFiniteMetrics());
    }
    if (!r.failureReasons().isEmpty()) {
      s.append(", \"failure_reasons\": [");
      for (int i = 0; i < r.failureReasons().size(); i++) {
        s.append(i == 0 ? "" : ", ").append(Json.string(r.failureReasons().get(i)));
      }
      s.append(']');
    }
    if (!r.algorithmMetrics().isEmpty()) {
      s.append(", \"algorithm_metrics\": {");
      int i = 0;
      for (Map.Entry<String, Double> e : r.algorithmMetrics().entrySet()) {
        s.append(i++ == 0 ? "" : ", ").append(Json.string(e.getKey())).append(": ")
            .append(Json.number(e.getValue()));
      }
      s.append('}');
    }
    return s.toString();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
