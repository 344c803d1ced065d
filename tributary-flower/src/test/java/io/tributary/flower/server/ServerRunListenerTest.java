package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunStart;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;

/** What {@link FlowerServer#run(RoundListener)} tells its listener, and in which order. */
class ServerRunListenerTest {
  /** Records what it is told; fails in round {@code failIn} when that is 1 or more. */
  private static final class Recorder implements RoundListener {
    final List<String> events = new ArrayList<>();
    final int failIn;
    RunStart start;
    RunEnd end;

    Recorder(int failIn) {
      this.failIn = failIn;
    }

    @Override
    public void started(RunStart start) {
      this.start = start;
      events.add("started " + start.firstRound());
    }

    @Override
    public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters)
        throws IOException {
      events.add("round " + metrics.round());
      if (metrics.round() == failIn) {
        throw new IOException("disk full");
      }
    }

    @Override
    public void finished(RunEnd end) {
      this.end = end;
      events.add("finished");
    }

    @Override
    public void close() {
      events.add("close");
    }
  }

  @Test
  void run_completes_toldStartEachRoundEndWithTheFinalModelThenClose() throws Exception {
    Recorder r = new Recorder(0);
    RunResult result;
    try (Harness h = new Harness(Harness.config().rounds(2).minClients(2).build())) {
      h.client(Behaviours.honest(1, 1));
      h.client(Behaviours.honest(2, 1));
      h.awaitClients(2);
      result = h.server.run(r);
    }

    assertThat(r.events).containsExactly("started 1", "round 1", "round 2", "finished", "close");
    assertThat(r.start.previous()).isEmpty();
    assertThat(r.start.settingsDisplay()).containsEntry("rounds", "2");
    assertThat(r.end.outcome()).startsWith("Completed 2 rounds in ");
    assertThat(r.end.finalParameters()).contains(result.finalParameters());
    assertThat(r.end.rounds()).isEqualTo(result.rounds());
  }

  @Test
  void run_listenerFailsInRound1_toldEndWithoutAModelThenCloseAndRunThrows() throws Exception {
    Recorder r = new Recorder(1);
    try (Harness h = new Harness(Harness.config().rounds(3).minClients(1).build())) {
      h.client(Behaviours.honest(1, 1));
      h.awaitClients(1);
      assertThatThrownBy(() -> h.server.run(r)).isInstanceOf(FlowerServerException.class)
          .hasMessageContaining("disk full");
    }

    assertThat(r.events).containsExactly("started 1", "round 1", "finished", "close");
    assertThat(r.end.finalParameters()).isEmpty();
    assertThat(r.end.outcome()).startsWith("Stopped in round ").contains("disk full");
  }

  @Test
  void stop_requestedDuringRound1_runEndsAfterItWithItsModel() throws Exception {
    Recorder r = new Recorder(0);
    RunResult result;
    try (Harness h = new Harness(Harness.config().rounds(5).minClients(1).build())) {
      h.client(Behaviours.honest(1, 1));
      h.awaitClients(1);
      RoundListener stopper = (metrics, parameters) -> h.server.stop("enough for today");
      result = h.server.run(io.tributary.learning.rounds.RoundListeners.of(List.of(r, stopper)));
    }

    assertThat(r.events).containsExactly("started 1", "round 1", "finished", "close");
    assertThat(r.end.outcome()).isEqualTo("Stopped after round 1: enough for today.");
    assertThat(result.rounds()).hasSize(1);
    assertThat(r.end.finalParameters()).contains(result.finalParameters());
  }

  @Test
  void run_resumedWithEarlierRounds_toldThemAtTheStartAndInTheEnd() throws Exception {
    java.util.LinkedHashMap<String, Tensor> model = new java.util.LinkedHashMap<>();
    model.put("w", Tensor.ofFloats(io.tributary.tensor.Shape.of(2), 0, 0));
    model.put("b", Tensor.scalar(1f));
    List<RoundRecord> earlier = List.of(
        RoundRecord.federated(1, 0.5, 0.5, 1, 10, 0, 1.0, 10, 20, List.of(), 0,
            new java.util.TreeMap<>()),
        RoundRecord.federated(2, 0.4, 0.4, 1, 10, 0, 1.0, 10, 20, List.of(), 0,
            new java.util.TreeMap<>()));
    Recorder r = new Recorder(0);
    RunResult result;
    try (Harness h = new Harness(Harness.config().rounds(3).minClients(1).initial(
        new InitialParameters.Resumed(model, 2, java.util.Optional.empty(), earlier)).build())) {
      h.client(Behaviours.honest(1, 1));
      h.awaitClients(1);
      result = h.server.run(r);
    }

    assertThat(r.events).containsExactly("started 3", "round 3", "finished", "close");
    assertThat(r.start.previous()).isEqualTo(earlier);
    assertThat(r.end.rounds()).extracting(RoundRecord::round).containsExactly(1, 2, 3);
    assertThat(r.end.outcome()).startsWith("Completed 3 rounds in ")
        .endsWith(" (resumed after round 2).");
    assertThat(result.rounds()).extracting(RoundRecord::round).containsExactly(3);
  }
}
