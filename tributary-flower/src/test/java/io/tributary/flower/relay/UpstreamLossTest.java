package io.tributary.flower.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ForwardingServerBuilder;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.RunResult;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A relay whose server goes away: it tells its clients to come back when it next tries to
 * rejoin, rejoins with backoff, and reports the next server's rounds with its clients back.
 */
class UpstreamLossTest {
  /** An in-process server builder that keeps the server it builds, to kill it abruptly. */
  private static final class Killable extends ForwardingServerBuilder<Killable> {
    private final InProcessServerBuilder delegate;
    Server built;

    Killable(String name) {
      this.delegate = InProcessServerBuilder.forName(name);
    }

    @Override
    protected ServerBuilder<?> delegate() {
      return delegate;
    }

    @Override
    public Server build() {
      built = delegate.build();
      return built;
    }
  }

  @Test
  void run_serverLostAndBack_clientsToldToReconnectAndTheRelayRejoinsAndReports()
      throws Exception {
    try (RelayRig rig = new RelayRig()) {
      Killable first = new Killable(rig.serverName);
      FlowerServer gone = FlowerServer.start(RelayRoundTest.server(1, 1,
          EdgeClients.initial()), first, RelayRig.REGISTRY);
      List<Relay> relays = rig.edges(1, 2);
      Relay relay = relays.get(0);
      rig.run(relay);
      RelayRig.await(() -> gone.connectedClients().size(), 1, "relays on the first server");
      List<FlowerClientRunner> clients = rig.runners();
      assertThat(clients).allSatisfy(c -> assertThat(c.connections()).isEqualTo(1));

      // The server dies without a goodbye: its streams break.
      first.built.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      RelayRig.await(relay::upstreamLosses, 1, "losses of the server");
      // Each client was told to come back (ReconnectIns), left, and joined the relay again.
      for (FlowerClientRunner c : clients) {
        RelayRig.await(c::connections, 2, "connections of a client");
      }
      // The relay keeps retrying (every 200 ms at most), but the outage is told once: the
      // clients, asked back in 1 s, are not sent away again while the server stays down.
      RelayRig.await(relay::upstreamLosses, 4, "failed retries");
      Thread.sleep(1500);
      assertThat(relay.upstreamLosses()).isGreaterThan(5);
      assertThat(relay.upstreamOutages()).isEqualTo(1);
      assertThat(clients).allSatisfy(c -> assertThat(c.connections()).isEqualTo(2));
      gone.close();

      // A new server on the same address: the relay rejoins on its own, with backoff.
      rig.server(RelayRoundTest.server(1, 1, EdgeClients.initial()));
      RelayRig.await(() -> rig.server.connectedClients().size(), 1, "relays on the new server");
      assertThat(relay.upstreamConnections()).isGreaterThanOrEqualTo(2);
      assertThat(relay.lastUpstreamLoss()).isNotEmpty();
      RunResult result = rig.server.run();

      assertThat(result.rounds().get(0).failureReasons()).isEmpty();
      assertThat(result.finalParameters().get("kernel"))
          .isEqualTo(RelayRoundTest.simulate(1, 2, 1, EdgeClients.initial()).get(0));
      assertThat(relay.connectedClients()).hasSize(2);
      assertThat(relay.upstreamOutages()).isEqualTo(1);
    }
  }

  @Test
  void close_duringAnEdgeRoundWaitingForClients_endsWithinTheGrace() throws Exception {
    try (RelayRig rig = new RelayRig()) {
      rig.server(RelayRoundTest.server(1, 1, EdgeClients.initial()));
      String name = InProcessServerBuilder.generateName();
      // An edge round waits up to 20 s for its client.
      Relay relay = rig.relay(RelayRig.config(1).clientWait(java.time.Duration.ofSeconds(20))
          .build(), name);
      FlowerClientRunner only = rig.join(new EdgeClients.Trainer(0), name);
      RelayRig.await(() -> relay.connectedClients().size(), 1, "clients");
      rig.run(relay);
      RelayRig.await(() -> rig.server.connectedClients().size(), 1, "relays");
      // The relay's one client leaves: the edge round will wait for it.
      only.close();
      RelayRig.await(() -> 1 - relay.connectedClients().size(), 1, "departures");
      java.util.concurrent.CompletableFuture<io.tributary.flower.server.RunResult> round =
          java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
              return rig.server.run();
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
      Thread.sleep(300);
      long start = System.nanoTime();
      relay.close();
      assertThat((System.nanoTime() - start) / 1e9).isLessThan(10);
      assertThat(rig.relayRuns.get(0).get(10, TimeUnit.SECONDS))
          .isEqualTo(FlowerClientRunner.Outcome.STOPPED);
      round.cancel(true);
    }
  }
}
