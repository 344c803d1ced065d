package io.tributary.ui.internal;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundRecord.EvaluationKind;
import io.tributary.learning.rounds.report.RunPage;
import io.tributary.learning.rounds.report.RunTotals;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;

/**
 * What a live view knows of its run, in bounded memory whatever the run's length: the totals of
 * every round, the latest failure reasons, and a history of at most {@code bound} rounds for the
 * charts and the table, thinned out evenly as the run grows (every round at first; past the bound
 * every second, then every fourth, ...; the latest round is always shown).
 *
 * <p>Its methods are synchronized: the run's thread adds rounds, the page's thread renders.
 * Adding a round costs O(1) amortized (a thinning pass of O(bound) every time the stride
 * doubles), so the run is never slowed by the page.
 */
public final class RunState implements PageSource {
  private final String title;
  private final int bound;
  private final List<RoundRecord> kept = new ArrayList<>();
  private final RunPage.FailureLines failures = new RunPage.FailureLines();
  private SequencedMap<String, String> settings = new LinkedHashMap<>();
  private RunTotals totals = RunTotals.NONE;
  private EvaluationKind kind;
  private boolean kindSeen;
  private RoundRecord latest;
  private long stride = 1;
  private long seen;
  private String outcome;
  private long version;
  /** The round under way, or null between rounds. */
  private RoundTracker current;

  /**
   * An empty state.
   *
   * @param bound the rounds the history keeps at most, at least 2
   * @param kind how the run is expected to evaluate its rounds, for the page before the first
   *     round ends; the first round's evaluation decides
   */
  public RunState(String title, int bound, EvaluationKind kind) {
    if (bound < 2) {
      throw new IllegalArgumentException("the history must keep at least 2 rounds, got " + bound);
    }
    this.title = title;
    this.bound = bound;
    this.kind = kind;
  }

  /** The run started with {@code settings}, after the {@code previous} rounds of a resumed run. */
  public synchronized void started(SequencedMap<String, String> settings,
      List<RoundRecord> previous) {
    this.settings = new LinkedHashMap<>(settings);
    for (RoundRecord r : previous) {
      add(r);
    }
    version++;
  }

  /** A round ended. */
  public synchronized void roundEnded(RoundRecord r) {
    add(r);
    current = null;
    version++;
  }

  /** The run ended as {@code outcome} says. */
  public synchronized void finished(String outcome) {
    this.outcome = outcome;
    current = null;
    version++;
  }

  /** Round {@code round} started. */
  public synchronized void roundStarted(int round) {
    if (outcome == null) {
      current = new RoundTracker(round, System.nanoTime(), java.time.Instant.now());
      version++;
    }
  }

  /** A stage of round {@code round} started over {@code clients} clients. */
  public synchronized void stage(int round, String stage, int clients) {
    RoundTracker t = tracker(round);
    if (t != null) {
      t.stage(stage, clients, System.nanoTime());
      version++;
    }
  }

  /** A client of round {@code round}'s current stage reported. */
  public synchronized void clientReported(int round) {
    RoundTracker t = tracker(round);
    if (t != null) {
      t.reported(System.nanoTime());
      version++;
    }
  }

  /** A client of round {@code round}'s current stage failed. */
  public synchronized void clientFailed(int round, String client, String reason) {
    RoundTracker t = tracker(round);
    if (t != null) {
      t.failed(client, reason, System.nanoTime());
      version++;
    }
  }

  /** Round {@code round}'s bytes so far. */
  public synchronized void traffic(int round, long up, long down) {
    RoundTracker t = tracker(round);
    if (t != null) {
      t.traffic(up, down, System.nanoTime());
      version++;
    }
  }

  /** A stage of round {@code round} ended with these final counts. */
  public synchronized void stageEnded(int round, String stage, int reported,
      List<String> failures) {
    RoundTracker t = tracker(round);
    if (t != null) {
      t.stageEnded(stage, reported, failures, System.nanoTime());
      version++;
    }
  }

  /** The tracker of {@code round}, or null when another round (or none) is under way. */
  private RoundTracker tracker(int round) {
    return current != null && current.round() == round ? current : null;
  }

  @Override
  public synchronized long version() {
    return version;
  }

  /** Whether the run has ended. */
  public synchronized boolean ended() {
    return outcome != null;
  }

  private void add(RoundRecord r) {
    totals = totals.plus(r);
    failures.add(r);
    if (!kindSeen) {
      kind = r.evaluation();
      kindSeen = true;
    } else if (r.evaluation() != kind) {
      // One run evaluates all its rounds one way; a view shared by two runs is misused, and
      // the page must not stop the run for it: such a round is counted but not plotted.
      return;
    }
    // The reasons are in the failure lines; a kept round need not hold them twice.
    RoundRecord slim = r.failureReasons().isEmpty() ? r : withoutReasons(r);
    latest = slim;
    if (seen++ % stride == 0) {
      kept.add(slim);
      if (kept.size() > bound) {
        thin();
      }
    }
  }

  /** Doubles the stride, keeping every second round of those kept. */
  private void thin() {
    stride *= 2;
    List<RoundRecord> every = new ArrayList<>((kept.size() + 1) / 2);
    for (int i = 0; i < kept.size(); i += 2) {
      every.add(kept.get(i));
    }
    kept.clear();
    kept.addAll(every);
  }

  private static RoundRecord withoutReasons(RoundRecord r) {
    return new RoundRecord(r.round(), r.evaluation(), r.trainLoss(), r.trainAccuracy(),
        r.testLoss(), r.testAccuracy(), r.clientLoss(), r.evalLoss(), r.clients(), r.examples(),
        r.failures(), r.seconds(), r.bytesUp(), r.bytesDown(), List.of(), r.nonFiniteMetrics(),
        r.algorithmMetrics());
  }

  /** The page of the run as it is now. */
  public synchronized RunPage page() {
    List<RoundRecord> rounds = new ArrayList<>(kept);
    if (latest != null && (rounds.isEmpty() || rounds.getLast() != latest)) {
      rounds.add(latest);
    }
    String status;
    if (outcome != null) {
      status = outcome;
    } else if (current != null) {
      status = "running: round " + current.round() + " under way";
    } else if (latest == null) {
      status = "running: waiting for the first round to end";
    } else {
      status = "running: round " + latest.round() + " ended";
    }
    RunPage.Builder b = RunPage.builder(title, kind)
        .status(status).running(outcome == null).settings(settings).rounds(rounds)
        .totals(totals).failures(failures);
    if (current != null) {
      b.underWay(current.view());
    }
    return b.build();
  }

  /**
   * {@inheritDoc} Only the snapshot is taken under the lock: the HTML is written outside it, so
   * that the run's threads never wait for a render.
   */
  @Override
  public Rendered render(String script) {
    RunPage p;
    long v;
    boolean ended;
    synchronized (this) {
      p = page();
      v = version;
      ended = outcome != null;
    }
    return new Rendered(v, p.html(script), p.main(), ended);
  }

  /** The rounds the history holds now, without the latest if it was not kept: for tests. */
  synchronized int kept() {
    return kept.size();
  }
}
