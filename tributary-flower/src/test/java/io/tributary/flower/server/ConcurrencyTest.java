package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Every sampled client is sent its instruction at once, whatever the runtime's pool size. */
class ConcurrencyTest {
  private static final int CLIENTS = 12;

  @Test
  void run_moreClientsThanWorkers_everyClientHoldsItsInstructionAtOnce() throws Exception {
    // Each client answers only once all of them hold an instruction: with instructions sent
    // one per worker (2 here), the round could never finish.
    CountDownLatch fits = new CountDownLatch(CLIENTS);
    CountDownLatch evaluates = new CountDownLatch(CLIENTS);
    try (Harness h = new Harness(Harness.config().rounds(2).minClients(CLIENTS)
        .maxConcurrentClients(2).roundTimeout(Duration.ofSeconds(20)).build())) {
      for (int i = 0; i < CLIENTS; i++) {
        h.client(waitingForAll(fits, evaluates, Behaviours.honest(1, 1)));
      }
      h.awaitClients(CLIENTS);
      RunResult result = h.server.run();

      assertThat(result.rounds()).allSatisfy(m -> {
        assertThat(m.clients()).isEqualTo(CLIENTS);
        assertThat(m.failures()).isZero();
      });
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 2, 2));
    }
  }

  private static Function<ServerMessage, Optional<ClientMessage>> waitingForAll(
      CountDownLatch fits, CountDownLatch evaluates,
      Function<ServerMessage, Optional<ClientMessage>> honest) {
    return m -> {
      CountDownLatch all = m.hasFitIns() ? fits : evaluates;
      all.countDown();
      try {
        if (!all.await(10, TimeUnit.SECONDS)) {
          return Optional.empty(); // dies: the round then reports a failure
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
      return honest.apply(m);
    };
  }
}
