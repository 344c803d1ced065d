package io.tributary.learning.rounds.output;

import io.tributary.learning.rounds.RoundJson;
import io.tributary.learning.rounds.RoundRecord;
import java.io.BufferedInputStream;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code metrics.jsonl}: one JSON object per round, written and flushed as each round ends, so
 * that a run stopped early still leaves every finished round on disk. The lines are {@link
 * RoundJson}'s, for the simulator's rounds and the server's alike; a resumed simulation reads its
 * earlier rounds back, and a resumed run of either cuts the log back to its checkpoint.
 *
 * <p>A checkpointed round's line is written after its checkpoint ({@link CheckpointListener}),
 * which holds the same line ({@link RoundCheckpoints#METRICS_LINE}): a run killed between the two
 * resumes with the line taken from the checkpoint ({@link #resume(Path, int, Optional)}).
 */
public final class MetricsLog implements Closeable {
  /** The log's file name in a run's directory. */
  public static final String FILE = "metrics.jsonl";

  private final BufferedWriter out;

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
    return resume(file, rounds, Optional.empty());
  }

  /**
   * Opens the log of a run resumed after round {@code rounds}, as {@link #resume(Path, int)}
   * does, given that round's line as its checkpoint holds it ({@link
   * RoundCheckpoints.Checkpoint#metricsLine}): a log that ends one line short, the run having
   * been killed after the checkpoint and before its line, gets the line back (a half-written one
   * replaced) and is fsynced before the run goes on.
   *
   * @throws IOException when the file holds fewer rounds than that, or lines this log did not
   *     write, or the given line is not round {@code rounds}'s
   */
  public static Resumed resume(Path file, int rounds, Optional<String> lastLine)
      throws IOException {
    Head head = head(file, rounds, lastLine);
    // Cut off later rounds and a line half-written when the run was killed.
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(head.end());
      if (head.restored()) {
        ch.position(head.end());
        ch.write(ByteBuffer.wrap((head.lines().getLast() + "\n")
            .getBytes(StandardCharsets.UTF_8)));
      }
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
  public static List<RoundRecord> read(Path file, int rounds) throws IOException {
    return read(file, rounds, RoundRecord.EvaluationKind.CENTRAL);
  }

  /**
   * The first {@code rounds} rounds of the log in {@code file}, each of the binding's {@code
   * kind} ({@code CENTRAL} for a simulation, {@code FEDERATED} for a server), read without
   * changing it.
   *
   * @throws IOException when the file holds fewer rounds, lines this log did not write, or
   *     rounds of the other kind of run
   */
  public static List<RoundRecord> read(Path file, int rounds, RoundRecord.EvaluationKind kind)
      throws IOException {
    return read(file, rounds, kind, Optional.empty());
  }

  /**
   * The first {@code rounds} rounds of the log in {@code file}, as {@link #read(Path, int,
   * RoundRecord.EvaluationKind)} reads them, the last one taken from {@code lastLine} (the
   * checkpoint's, {@link RoundCheckpoints.Checkpoint#metricsLine}) when the log ends one line
   * short of it; read without changing the file.
   *
   * @throws IOException when the file holds fewer rounds than that, lines this log did not
   *     write, or rounds of the other kind of run
   */
  public static List<RoundRecord> read(Path file, int rounds, RoundRecord.EvaluationKind kind,
      Optional<String> lastLine) throws IOException {
    List<String> lines = head(file, rounds, lastLine).lines();
    List<RoundRecord> out = new ArrayList<>();
    if (kind == RoundRecord.EvaluationKind.CENTRAL) {
      for (String line : lines) {
        out.add(parse(line));
      }
      return List.copyOf(out);
    }
    for (String line : lines) {
      RoundRecord r;
      try {
        r = RoundJson.parse(line);
      } catch (IllegalArgumentException e) {
        throw new RunFileException("a line of " + FILE + " is not a round of"
            + " tributary server (" + e.getMessage() + "): " + line);
      }
      if (r.evaluation() != kind) {
        throw new RunFileException("round " + r.round() + " of " + FILE + " is a round of"
            + " tributary simulate (it has train_loss), not of tributary server");
      }
      out.add(r);
    }
    return List.copyOf(out);
  }

  /**
   * The first lines of a log and the byte offset just after those read from the file; {@code
   * restored} when the last line is not in the file but came from the checkpoint.
   */
  private record Head(List<String> lines, long end, boolean restored) {}

  private static Head head(Path file, int rounds) throws IOException {
    return head(file, rounds, Optional.empty());
  }

  /**
   * The first {@code rounds} lines of {@code file}, each checked to be that round's, reading at
   * most {@link #MAX_LINE} bytes a line so that a hostile file cannot fill the heap.
   *
   * <p>When the file ends (a half-written line aside) with round {@code rounds - 1}, {@code
   * lastLine}, if given, is round {@code rounds}'s line.
   *
   * @throws IOException when the file holds fewer complete rounds, or lines this log did not
   *     write
   */
  private static Head head(Path file, int rounds, Optional<String> lastLine) throws IOException {
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
        if (b < 0 && kept.size() == rounds - 1 && lastLine.isPresent()) {
          String text = lastLine.get();
          if (text.indexOf('\n') >= 0 || text.length() > MAX_LINE
              || !isRound(text, rounds)) {
            throw new RunFileException("the checkpoint's line of round " + rounds
                + " is not round " + rounds + " of a run's metrics");
          }
          kept.add(text);
          return new Head(kept, start, true);
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
    return new Head(kept, end, false);
  }

  private static boolean isRound(String line, int round) {
    Matcher m = ROUND.matcher(line);
    return m.find() && Integer.parseInt(m.group(1)) == round;
  }

  /**
   * A line {@link #toJson} wrote for a simulation, read back.
   *
   * @throws RunFileException when the line is not a centrally evaluated round (a server's line,
   *     or not a round at all)
   */
  public static RoundRecord parse(String line) throws RunFileException {
    RoundRecord r;
    try {
      r = RoundJson.parse(line);
    } catch (IllegalArgumentException e) {
      throw new RunFileException("a line of " + FILE + " is not a round of"
          + " tributary simulate (" + e.getMessage() + "): " + line);
    }
    if (r.evaluation() != RoundRecord.EvaluationKind.CENTRAL) {
      throw new RunFileException("a line of " + FILE + " is not a round of"
          + " tributary simulate (no train_loss): " + line);
    }
    return r;
  }

  /** Appends the round's line. */
  public void write(RoundRecord r) throws IOException {
    writeLine(toJson(r));
  }

  /** Appends one JSON object, which must be on one line. */
  private void writeLine(String jsonObject) throws IOException {
    out.write(jsonObject);
    out.write('\n');
    out.flush();
  }

  /** The round as one line of JSON ({@link RoundJson#toJson}). */
  public static String toJson(RoundRecord r) {
    return RoundJson.toJson(r);
  }

  /** Closes the file (each line was flushed as it was written). */
  @Override
  public void close() throws IOException {
    out.close();
  }
}
