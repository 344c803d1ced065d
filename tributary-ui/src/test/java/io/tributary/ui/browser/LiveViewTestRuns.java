package io.tributary.ui.browser;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunStart;
import io.tributary.ui.LiveView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.TreeMap;

/** A run's events told to a view by hand, for the tests that need no real run. */
final class LiveViewTestRuns {
  private LiveViewTestRuns() {}

  /** Tells {@code view} that a run of {@code rounds} rounds started. */
  static void start(LiveView view, int rounds) {
    SequencedMap<String, String> settings = new LinkedHashMap<>();
    settings.put("rounds", Integer.toString(rounds));
    view.started(new RunStart() {
      @Override
      public int firstRound() {
        return 1;
      }

      @Override
      public int lastRound() {
        return rounds;
      }

      @Override
      public List<RoundRecord> previous() {
        return List.of();
      }

      @Override
      public SequencedMap<String, String> settingsDisplay() {
        return settings;
      }
    });
  }

  /** A centrally evaluated round without failures. */
  static RoundRecord round(int r) {
    return new RoundRecord(r, 1.0 / r, 0.8, 1.0 / r, 0.75, 1.0 / r, 5, 50, 0, 0.1, 100, 100,
        List.of(), 0, new TreeMap<>());
  }
}
