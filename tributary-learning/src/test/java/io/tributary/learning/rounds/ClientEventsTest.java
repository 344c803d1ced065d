package io.tributary.learning.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ClientObserver;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runtime's client events become a round's, each client told once, named by its cohort. */
class ClientEventsTest {
  private static final Cohort COHORT =
      Cohort.generated("fit", 3, k -> k, k -> "client " + (k + 10));

  /** A population of simulated datasets, or a server's when {@code tells}. */
  private static Population population(boolean tells) {
    return new Population() {
      @Override
      public Cohort fitCohort(int round) {
        return COHORT;
      }

      @Override
      public List<Cohort> evaluationCohorts(int round) {
        return List.of();
      }

      @Override
      public boolean tellsEachClient() {
        return tells;
      }
    };
  }

  private static RoundProgress logTo(List<String> log) {
    return new RoundProgress() {
      @Override
      public void clientReported(int round, String client) {
        log.add(round + " reported " + client);
      }

      @Override
      public void clientFailed(int round, String client, String reason) {
        log.add(round + " failed " + client + ": " + reason);
      }
    };
  }

  @Test
  void of_populationTellsItsClientsOrNobodyListens_observesNothing() {
    List<String> log = new ArrayList<>();

    assertThat(ClientEvents.of(1, COHORT, logTo(log), population(true)))
        .isSameAs(ClientObserver.NONE);
    assertThat(ClientEvents.of(1, COHORT, RoundProgress.NONE, population(false)))
        .isSameAs(ClientObserver.NONE);
    assertThat(ClientEvents.of(1, COHORT, logTo(log), population(false)))
        .isInstanceOf(ClientEvents.class);
  }

  @Test
  void clientDone_twoPassesAndAFailure_eachClientToldOnceByItsName() {
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    ClientObserver events = ClientEvents.of(4, COHORT, logTo(log), population(false));

    events.clientDone(0, 0);
    events.clientDone(1, 0);
    events.clientFailed(0, new ClientFailure(2, "federated_map", "java:train",
        ClientFailure.Kind.THREW, "out of memory"));
    events.clientDone(1, 2);
    events.clientFailed(1, new ClientFailure(2, "federated_mean", "its value",
        ClientFailure.Kind.BAD_VALUE, "not finite"));
    events.clientDone(0, 3);
    events.clientDone(0, -1);

    assertThat(log).containsExactly("4 reported client 10",
        "4 failed client 12: client 12 failed in federated_map (java:train): threw: "
            + "out of memory");
  }
}
