package io.tributary.learning.rounds;

import io.tributary.learning.json.Json;
import io.tributary.learning.rounds.RoundRecord.EvaluationKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link RoundRecord} as one line of {@code metrics.jsonl}, the same for {@code tributary
 * simulate} and {@code tributary server}, and back.
 *
 * <p>Keys come in one fixed order: {@code round}, the central evaluation's {@code train_loss},
 * {@code train_accuracy}, {@code test_loss}, {@code test_accuracy} (only in a {@link
 * EvaluationKind#CENTRAL} round), {@code client_loss}, the federated evaluation's {@code
 * eval_loss} (only in a {@link EvaluationKind#FEDERATED} round), {@code clients}, {@code examples},
 * {@code failures}, {@code seconds}, {@code bytes_up}, {@code bytes_down}, then {@code
 * nonfinite_metrics}, {@code failure_reasons} and {@code algorithm_metrics} only when there is
 * something to say. Numbers are written by {@link Json#number}: a NaN figure of a central round
 * is the string {@code "NaN"} (the evaluation ran and gave NaN), while in a federated round NaN
 * {@code client_loss} and {@code eval_loss} are {@code null}, since the server leaves NaN client
 * reports out (counting them in {@code nonfinite_metrics}) and NaN there means no client reported
 * one. {@link #parse} reads both {@code null} and {@code "NaN"} as NaN.
 */
public final class RoundJson {
  /** One {@code "key": value} pair of a line this class wrote. */
  private static final Pattern PAIR =
      Pattern.compile("\"([a-z_]+)\": (\"[^\"]*\"|[^,}]+)");

  private RoundJson() {}

  /** The round as one line of JSON, keys in the fixed order. */
  public static String toJson(RoundRecord r) {
    StringBuilder s = new StringBuilder("{\"round\": ").append(r.round());
    if (r.evaluation() == EvaluationKind.CENTRAL) {
      s.append(", \"train_loss\": ").append(Json.number(r.trainLoss()))
          .append(", \"train_accuracy\": ").append(Json.number(r.trainAccuracy()))
          .append(", \"test_loss\": ").append(Json.number(r.testLoss()))
          .append(", \"test_accuracy\": ").append(Json.number(r.testAccuracy()))
          .append(", \"client_loss\": ").append(Json.number(r.clientLoss()));
    } else {
      s.append(", \"client_loss\": ").append(Json.number(reported(r.clientLoss())))
          .append(", \"eval_loss\": ").append(Json.number(reported(r.evalLoss())));
    }
    s.append(", \"clients\": ").append(r.clients())
        .append(", \"examples\": ").append(r.examples())
        .append(", \"failures\": ").append(r.failures())
        .append(", \"seconds\": ").append(Json.number(r.seconds()))
        .append(", \"bytes_up\": ").append(r.bytesUp())
        .append(", \"bytes_down\": ").append(r.bytesDown());
    extras(r, s);
    return s.append('}').toString();
  }

  /** A client-reported figure: null when NaN, as no client reported it. */
  private static Double reported(double d) {
    return Double.isNaN(d) ? null : d;
  }

  /** Keys present only when there is something to say, so a clean round's line is shorter. */
  private static void extras(RoundRecord r, StringBuilder s) {
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
  }

  /**
   * A line {@link #toJson} wrote, read back: a round with {@code train_loss} was evaluated
   * centrally, one without it by the clients.
   *
   * @throws IllegalArgumentException when the line is not such a round (a key missing, a value
   *     of the wrong kind, counts that contradict each other)
   */
  public static RoundRecord parse(String line) {
    Map<String, String> v = new HashMap<>();
    Matcher m = PAIR.matcher(line);
    while (m.find()) {
      v.putIfAbsent(m.group(1), m.group(2)); // the first: a later string may quote a key
    }
    boolean central = v.containsKey("train_loss");
    return new RoundRecord(integer(v, "round"),
        central ? EvaluationKind.CENTRAL : EvaluationKind.FEDERATED,
        central ? real(v, "train_loss") : Double.NaN,
        central ? real(v, "train_accuracy") : Double.NaN,
        central ? real(v, "test_loss") : Double.NaN,
        central ? real(v, "test_accuracy") : Double.NaN,
        real(v, "client_loss"), central ? Double.NaN : real(v, "eval_loss"),
        integer(v, "clients"), Long.parseLong(value(v, "examples")), integer(v, "failures"),
        real(v, "seconds"), Long.parseLong(value(v, "bytes_up")),
        Long.parseLong(value(v, "bytes_down")), reasons(line),
        v.containsKey("nonfinite_metrics") ? integer(v, "nonfinite_metrics") : 0,
        algorithmMetrics(line));
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
}
