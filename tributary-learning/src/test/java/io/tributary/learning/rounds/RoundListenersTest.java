package io.tributary.learning.rounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Several listeners told as one. */
class RoundListenersTest {
  private static RoundRecord round(int n) {
    return new RoundRecord(n, 0.5, 0.5, 0.5, 0.5, 0.5, 1, 1, 0, 1.0, 1, 1, List.of(), 0,
        new TreeMap<>());
  }

  private record Named(String name, List<String> log, Optional<String> stop, boolean failClose)
      implements RoundListener {
    @Override
    public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters) {
      log.add(name + " round " + metrics.round());
    }

    @Override
    public Optional<String> stopAfter(RoundRecord round) {
      log.add(name + " asked");
      return stop;
    }

    @Override
    public void close() throws IOException {
      log.add(name + " closed");
      if (failClose) {
        throw new IOException(name + " cannot close");
      }
    }
  }

  @Test
  void stopAfter_twoListenersAnswer_firstReasonWinsAndEveryListenerIsAsked() {
    List<String> log = new ArrayList<>();
    RoundListener both = RoundListeners.of(List.of(
        new Named("a", log, Optional.empty(), false),
        new Named("b", log, Optional.of("budget"), false),
        new Named("c", log, Optional.of("target"), false)));

    assertThat(both.stopAfter(round(1))).contains("budget");
    assertThat(log).containsExactly("a asked", "b asked", "c asked");
  }

  @Test
  void close_twoFail_closesAllLastFirstAndThrowsTheFirstWithTheOtherSuppressed() {
    List<String> log = new ArrayList<>();
    RoundListener all = RoundListeners.of(List.of(
        new Named("a", log, Optional.empty(), true),
        new Named("b", log, Optional.empty(), false),
        new Named("c", log, Optional.empty(), true)));

    assertThatThrownBy(all::close).hasMessage("c cannot close")
        .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage)
            .containsExactly("a cannot close"));
    assertThat(log).containsExactly("c closed", "b closed", "a closed");
  }

  @Test
  void runStop_requestedTwice_keepsTheFirstReason() {
    RunStop stop = new RunStop();
    assertThat(stop.requested()).isEmpty();
    stop.request("first");
    stop.request("second");
    assertThat(stop.requested()).contains("first");
  }

  @Test
  void progress_twoListeners_eachIsToldEveryEventInOrder() {
    List<String> log = new ArrayList<>();
    class Progress implements RoundListener {
      private final String name;

      Progress(String name) {
        this.name = name;
      }

      @Override
      public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters) {}

      @Override
      public void roundStarted(int round) {
        log.add(name + " started " + round);
      }

      @Override
      public void stage(int round, String stage, int clients) {
        log.add(name + " " + stage + " " + clients);
      }

      @Override
      public void clientReported(int round, String client) {
        log.add(name + " reported " + client);
      }

      @Override
      public void clientFailed(int round, String client, String reason) {
        log.add(name + " failed " + client + ": " + reason);
      }

      @Override
      public void traffic(int round, long up, long down) {
        log.add(name + " bytes " + up + "/" + down);
      }

      @Override
      public void stageEnded(int round, String stage, int reported, List<String> failures) {
        log.add(name + " " + stage + " ended " + reported + " " + failures);
      }
    }
    RoundListener both = RoundListeners.of(new Progress("a"), new Progress("b"));

    both.roundStarted(1);
    both.stage(1, "fit", 2);
    both.clientReported(1, "c1");
    both.clientFailed(1, "c2", "left");
    both.traffic(1, 10, 20);
    both.stageEnded(1, "fit", 1, List.of("c2 left"));

    assertThat(log).containsExactly("a started 1", "b started 1", "a fit 2", "b fit 2",
        "a reported c1", "b reported c1", "a failed c2: left", "b failed c2: left",
        "a bytes 10/20", "b bytes 10/20", "a fit ended 1 [c2 left]", "b fit ended 1 [c2 left]");
  }
}
