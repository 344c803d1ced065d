package io.tributary.flower.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.server.NotEnoughClientsException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Registration, waiting and seeded sampling. */
class ClientManagerTest {
  static ClientManager withClients(int n) {
    ClientManager m = new ClientManager();
    for (int i = 1; i <= n; i++) {
      m.register(i, new ClientProxy("client-" + i, "numpy.ndarray", null, null, new Traffic(),
          m::unregister, Integer.MAX_VALUE,
          new OutboundBudget(OutboundBudget.DEFAULT_BYTES),
          new InboundBudget(InboundBudget.DEFAULT_BYTES)));
    }
    return m;
  }

  static List<String> ids(List<? extends RemoteClient> clients) {
    return clients.stream().map(RemoteClient::id).toList();
  }

  @Test
  void sample_sameSeedAndRound_sameClients() throws Exception {
    List<String> a = ids(withClients(20).sample(0.3, 2, 42, 5, Duration.ofSeconds(1)));
    List<String> b = ids(withClients(20).sample(0.3, 2, 42, 5, Duration.ofSeconds(1)));
    assertThat(a).hasSize(6).doesNotHaveDuplicates().isEqualTo(b);
  }

  @Test
  void sample_differentRounds_chooseDifferentClients() throws Exception {
    ClientManager m = withClients(20);
    Set<List<String>> seen = new HashSet<>();
    for (int round = 1; round <= 10; round++) {
      seen.add(ids(m.sample(0.25, 1, 7, round, Duration.ofSeconds(1))));
    }
    assertThat(seen).hasSizeGreaterThan(5);
  }

  @ParameterizedTest
  @CsvSource({"10,1.0,2,10", "10,0.1,2,2", "10,0.5,2,5", "3,0.1,5,3", "7,0.3,1,2"})
  void sampleSize_flowerFormula_maxOfFractionAndMinCappedAtAvailable(int available,
      double fraction, int min, int expected) {
    assertThat(ClientManager.sampleSize(available, fraction, min)).isEqualTo(expected);
  }

  @Test
  void waitFor_tooFewWithinTimeout_throwsNamingTheCounts() {
    ClientManager m = withClients(1);
    assertThatThrownBy(() -> m.waitFor(2, Duration.ofMillis(50)))
        .isInstanceOf(NotEnoughClientsException.class)
        .hasMessageContaining("for 2 clients, but only 1 connected");
  }

  @Test
  void waitFor_clientJoinsWhileWaiting_returns() throws Exception {
    ClientManager m = withClients(1);
    Thread t = new Thread(() -> m.register(9, new ClientProxy("client-9", "numpy.ndarray", null,
        null, new Traffic(), m::unregister, Integer.MAX_VALUE,
          new OutboundBudget(OutboundBudget.DEFAULT_BYTES),
          new InboundBudget(InboundBudget.DEFAULT_BYTES))));
    t.start();
    assertThat(ids(m.waitFor(2, Duration.ofSeconds(5)))).containsExactly("client-1",
        "client-9");
    t.join();
  }

  @Test
  void unregister_removesOnlyThatClient() {
    ClientManager m = withClients(3);
    m.unregister(m.get("client-2").orElseThrow());
    assertThat(ids(m.all())).containsExactly("client-1", "client-3");
    assertThat(m.get("client-2")).isEmpty();
  }
}
