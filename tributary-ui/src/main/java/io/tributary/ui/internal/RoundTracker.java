package io.tributary.ui.internal;

import io.tributary.learning.rounds.report.RoundUnderWay;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * The round under way, counted from its progress events in bounded memory whatever the number of
 * clients: a few counters per stage (at most {@link #MAX_STAGES} stages) and the latest {@link
 * #MAX_FAILURES} failure lines. Each event is O(1) but {@link #stageEnded}, which is told once
 * per stage. Not thread-safe: {@link RunState} holds its lock around every call.
 */
final class RoundTracker {
  /** Stages a round shows at most; later ones are counted into the last. */
  static final int MAX_STAGES = 32;
  /** Failure lines of the round kept at most. */
  static final int MAX_FAILURES = 20;
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'")
      .withZone(ZoneOffset.UTC);

  private final int round;
  private final long startNanos;
  private final String startedAt;
  private final List<Stage> stages = new ArrayList<>();
  private final Deque<Failure> failures = new ArrayDeque<>();
  private long failuresOmitted;
  private long lastNanos;
  private long bytesUp = -1;
  private long bytesDown = -1;

  private static final class Stage {
    final String name;
    final int clients;
    int reported;
    int failed;
    boolean ended;

    Stage(String name, int clients) {
      this.name = name;
      this.clients = clients;
    }
  }

  private record Failure(String stage, String line) {}

  RoundTracker(int round, long nowNanos, Instant now) {
    this.round = round;
    this.startNanos = nowNanos;
    this.lastNanos = nowNanos;
    this.startedAt = CLOCK.format(now);
  }

  int round() {
    return round;
  }

  void stage(String name, int clients, long now) {
    lastNanos = now;
    Stage existing = find(name);
    if (existing == null && stages.size() < MAX_STAGES) {
      stages.add(new Stage(name, Math.max(0, clients)));
    }
  }

  void reported(long now) {
    lastNanos = now;
    Stage s = current();
    if (s != null) {
      s.reported++;
    }
  }

  void failed(String client, String reason, long now) {
    lastNanos = now;
    Stage s = current();
    if (s != null) {
      s.failed++;
    }
    String why = cut(reason);
    // A server's reasons name their client already.
    String line = why.contains(client) ? why : client + ": " + why;
    add(new Failure(s == null ? "" : s.name, (s == null ? "" : s.name + ": ") + line));
  }

  void traffic(long up, long down, long now) {
    lastNanos = now;
    bytesUp = up;
    bytesDown = down;
  }

  /** The stage's final counts and reasons replace those counted as they came. */
  void stageEnded(String name, int reported, List<String> reasons, long now) {
    lastNanos = now;
    Stage s = find(name);
    if (s == null) {
      return;
    }
    s.reported = reported;
    s.failed = reasons.size();
    s.ended = true;
    for (Iterator<Failure> it = failures.iterator(); it.hasNext(); ) {
      if (it.next().stage.equals(name)) {
        it.remove();
      }
    }
    // Only the last MAX_FAILURES can be kept: skip the rest without copying them.
    int from = Math.max(0, reasons.size() - MAX_FAILURES);
    failuresOmitted += from;
    for (int i = from; i < reasons.size(); i++) {
      add(new Failure(name, name + ": " + cut(reasons.get(i))));
    }
  }

  RoundUnderWay view() {
    List<RoundUnderWay.Stage> out = new ArrayList<>(stages.size());
    for (Stage s : stages) {
      out.add(new RoundUnderWay.Stage(s.name, s.clients, s.reported, s.failed, s.ended));
    }
    return new RoundUnderWay(round, startedAt, (lastNanos - startNanos) / 1e9, out,
        failures.stream().map(Failure::line).toList(), failuresOmitted, bytesUp, bytesDown);
  }

  private void add(Failure f) {
    failures.addLast(f);
    if (failures.size() > MAX_FAILURES) {
      failures.removeFirst();
      failuresOmitted++;
    }
  }

  /** The latest stage not ended, which the clients' events are about. */
  private Stage current() {
    for (int i = stages.size() - 1; i >= 0; i--) {
      if (!stages.get(i).ended) {
        return stages.get(i);
      }
    }
    return stages.isEmpty() ? null : stages.getLast();
  }

  private Stage find(String name) {
    for (Stage s : stages) {
      if (s.name.equals(name)) {
        return s;
      }
    }
    return null;
  }

  /** A reason as one line of bounded length, so that a hostile client's text stays small. */
  private static String cut(String reason) {
    String r = String.valueOf(reason);
    if (r.length() > 300) {
      r = r.substring(0, 297) + "...";
    }
    return r.replaceAll("\\R", " ");
  }
}
