package io.tributary.learning.rounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;

class RoundListenersTest {
  /** Notes each event with its name; fails where told. */
  private static final class Noting implements RoundListener {
    final String name;
    final List<String> log;
    final boolean failRound;
    final boolean failClose;

    Noting(String name, List<String> log, boolean failRound, boolean failClose) {
      this.name = name;
      this.log = log;
      this.failRound = failRound;
      this.failClose = failClose;
    }

    @Override
    public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters)
        throws IOException {
      log.add(name + " round " + metrics.round());
      if (failRound) {
        throw new IOException(name + " cannot write");
      }
    }

    @Override
    public void close() throws IOException {
      log.add(name + " closed");
      if (failClose) {
        throw new IOException(name + " cannot close");
      }
    }
  }

  private static RoundRecord round(int r) {
    return new RoundRecord(r, 1, 0.5, 1, 0.5, 1, 2, 10, 0, 0.1, 1, 1);
  }

  @Test
  void of_events_reachEveryListenerInOrder() throws IOException {
    List<String> log = new ArrayList<>();
    RoundListener both = RoundListeners.of(new Noting("a", log, false, false),
        new Noting("b", log, false, false));

    both.roundEnded(round(1), new LinkedHashMap<>(), Optional.empty());
    both.close();

    assertThat(log).containsExactly("a round 1", "b round 1", "a closed", "b closed");
  }

  @Test
  void of_failures_stopTheEventButCloseEveryListener() {
    List<String> log = new ArrayList<>();
    RoundListener both = RoundListeners.of(new Noting("a", log, true, true),
        new Noting("b", log, false, true));

    assertThatThrownBy(() -> both.roundEnded(round(1), new LinkedHashMap<>()))
        .hasMessage("a cannot write");
    assertThatThrownBy(both::close).hasMessage("a cannot close")
        .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
            .extracting(Throwable::getMessage).isEqualTo("b cannot close"));
    assertThat(log).containsExactly("a round 1", "a closed", "b closed");
  }
}
