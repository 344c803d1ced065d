package io.tributary.flower;

import static io.tributary.flower.testing.Messages.getParameters;
import static io.tributary.flower.testing.Messages.reconnect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.internal.proto.ClientMessage.MsgCase;
import io.tributary.flower.internal.proto.Reason;
import io.tributary.flower.testing.Messages;
import io.tributary.flower.testing.ScriptedServer;
import io.tributary.flower.testing.ScriptedServer.Fail;
import io.tributary.flower.testing.ScriptedServer.Hang;
import io.tributary.flower.testing.ScriptedServer.Send;
import io.tributary.flower.testing.ScriptedServer.Step;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Reconnection, backoff, refusal, stopping, and what the client says in its headers. */
@Timeout(60)
class ReconnectionTest {
  private static final Backoff FAST = new Backoff(Duration.ofMillis(20), Duration.ofMillis(80),
      2, 0.2, 3, 7);

  private static FlowerClientRunner runner(ManagedChannel channel, Backoff backoff)
      throws Exception {
    return FlowerClientRunner.builder(new ConversationTest.DoublingClient()).channel(channel)
        .backoff(backoff).build();
  }

  @Test
  void run_reconnectInsWithSeconds_answersReconnectThenJoinsAgainAfterTheWait() throws Exception {
    List<Step> first = List.of(new Send(reconnect(1)));
    List<Step> second = List.of(new Send(getParameters()), new Send(reconnect(0)));
    try (ScriptedServer server = new ScriptedServer(null, List.of(first, second)).start()) {
      ManagedChannel channel = server.channel();
      try (FlowerClientRunner r = runner(channel, FAST)) {
        assertThat(r.run()).isEqualTo(FlowerClientRunner.Outcome.DISCONNECTED_BY_SERVER);
        assertThat(r.connections()).isEqualTo(2);
      } finally {
        channel.shutdownNow();
      }
      List<ScriptedServer.Stream> streams = server.streams();
      assertThat(streams.get(0).answers().getFirst().getDisconnectRes().getReason())
          .isEqualTo(Reason.RECONNECT);
      assertThat(streams.get(1).startNanos() - streams.get(0).startNanos())
          .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(1000));
      assertThat(Messages.kinds(streams.get(1).answers()))
          .containsExactly(MsgCase.GET_PARAMETERS_RES, MsgCase.DISCONNECT_RES);
      assertThat(streams).allSatisfy(s -> assertThat(s.violations()).isEmpty());
    }
  }

  @Test
  void run_serverDropsStream_reconnectsAndGoesOn() throws Exception {
    List<Step> first = List.of(new Send(getParameters()),
        new Fail(Status.UNAVAILABLE.withDescription("server restarting")));
    List<Step> second = List.of(new Send(reconnect(0)));
    try (ScriptedServer server = new ScriptedServer(null, List.of(first, second)).start()) {
      ManagedChannel channel = server.channel();
      try (FlowerClientRunner r = runner(channel, FAST)) {
        assertThat(r.run()).isEqualTo(FlowerClientRunner.Outcome.DISCONNECTED_BY_SERVER);
        assertThat(r.connections()).isEqualTo(2);
      } finally {
        channel.shutdownNow();
      }
    }
  }

  @Test
  void run_noServer_retriesWithBackoffThenGivesUp() throws Exception {
    ManagedChannel channel = InProcessChannelBuilder.forName("nobody-" + System.nanoTime())
        .build();
    long t0 = System.nanoTime();
    try (FlowerClientRunner r = runner(channel, FAST)) {
      assertThatThrownBy(r::run).isInstanceOf(ConnectionFailedException.class)
          .hasMessageContaining("gave up after 3 failed attempts").hasMessageContaining("UNAVAILABLE");
      assertThat(r.connections()).isEqualTo(3);
    } finally {
      channel.shutdownNow();
    }
    // Two waits: about 20 ms then 40 ms, each within 20 % jitter.
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(48));
  }

  @Test
  void run_serverStartsLate_connectsOnARetry() throws Exception {
    List<Step> script = List.of(new Send(getParameters()), new Send(reconnect(0)));
    ScriptedServer server = new ScriptedServer(null, List.of(script));
    ManagedChannel channel = InProcessChannelBuilder.forName(server.name()).build();
    Backoff patient = FAST.withMaxAttempts(50);
    try (FlowerClientRunner r = runner(channel, patient)) {
      CompletableFuture<FlowerClientRunner.Outcome> outcome = r.start();
      Thread.sleep(150);
      server.start();
      assertThat(outcome.get(20, TimeUnit.SECONDS))
          .isEqualTo(FlowerClientRunner.Outcome.DISCONNECTED_BY_SERVER);
      assertThat(r.connections()).isGreaterThan(1);
      assertThat(server.streams()).hasSize(1);
    } finally {
      channel.shutdownNow();
      server.close();
    }
  }

  @Test
  void run_serverRefusesWithUnauthenticated_failsWithoutRetrying() throws Exception {
    List<Step> script = List.of(new Fail(Status.UNAUTHENTICATED.withDescription("bad token")));
    try (ScriptedServer server = new ScriptedServer(null, List.of(script)).start()) {
      ManagedChannel channel = server.channel();
      try (FlowerClientRunner r = runner(channel, FAST)) {
        assertThatThrownBy(r::run).isInstanceOf(ConnectionFailedException.class)
            .hasMessageContaining("UNAUTHENTICATED").hasMessageContaining("bad token");
        assertThat(r.connections()).isEqualTo(1);
      } finally {
        channel.shutdownNow();
      }
    }
  }

  @Test
  void stop_whileServerIsSilent_endsTheRunWithStopped() throws Exception {
    List<Step> script = List.of(new Send(getParameters()), new Hang());
    try (ScriptedServer server = new ScriptedServer(null, List.of(script)).start()) {
      ManagedChannel channel = server.channel();
      try (FlowerClientRunner r = runner(channel, FAST)) {
        CompletableFuture<FlowerClientRunner.Outcome> outcome = r.start();
        while (server.streams().isEmpty() || server.streams().getFirst().answers().isEmpty()) {
          Thread.sleep(10);
        }
        r.stop();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(FlowerClientRunner.Outcome.STOPPED);
      } finally {
        channel.shutdownNow();
      }
    }
  }

  @Test
  void run_withTokenAndTypes_announcesThemInRequestHeaders() throws Exception {
    List<Step> script = List.of(new Send(reconnect(0)));
    try (ScriptedServer server = new ScriptedServer(null, List.of(script)).start()) {
      ManagedChannel channel = server.channel();
      try (FlowerClientRunner r = FlowerClientRunner.builder(new ConversationTest.DoublingClient())
          .channel(channel).authToken("s3cret-T0ken").tensorTypes(List.of("proto.ndarray",
              "numpy.ndarray")).build()) {
        r.run();
      } finally {
        channel.shutdownNow();
      }
      Metadata h = server.streams().getFirst().headers();
      assertThat(h.get(TensorTypes.HEADER)).isEqualTo("proto.ndarray,numpy.ndarray");
      assertThat(h.get(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER)))
          .isEqualTo("Bearer s3cret-T0ken");
    }
  }

  @Test
  void run_defaults_announceNumpyFirstAndNoToken() throws Exception {
    List<Step> script = List.of(new Send(reconnect(0)));
    try (ScriptedServer server = new ScriptedServer(null, List.of(script)).start()) {
      ManagedChannel channel = server.channel();
      try (FlowerClientRunner r = runner(channel, FAST)) {
        r.run();
      } finally {
        channel.shutdownNow();
      }
      Metadata h = server.streams().getFirst().headers();
      assertThat(h.get(TensorTypes.HEADER)).isEqualTo("numpy.ndarray,proto.ndarray");
      assertThat(h.containsKey(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER)))
          .isFalse();
    }
  }

  @Test
  void run_calledTwice_isRefused() throws Exception {
    List<Step> script = List.of(new Send(reconnect(0)));
    try (ScriptedServer server = new ScriptedServer(null, List.of(script)).start()) {
      ManagedChannel channel = server.channel();
      try (FlowerClientRunner r = runner(channel, FAST)) {
        r.run();
        assertThatThrownBy(r::run).isInstanceOf(IllegalStateException.class);
      } finally {
        channel.shutdownNow();
      }
    }
  }

  @Test
  void builder_badSettings_areRefusedWithTheReason() {
    var b = FlowerClientRunner.builder(new ConversationTest.DoublingClient());
    assertThatThrownBy(() -> b.authToken("has space")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.tensorTypes(List.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.maxMessageSize(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("target");
    assertThatThrownBy(() -> b.tensorTypes(List.of("proto.tftensor")).target("x:1").build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("proto.tftensor");
  }
}
