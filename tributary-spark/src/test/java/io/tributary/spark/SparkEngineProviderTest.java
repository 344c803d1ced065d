package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.FederatedAlgorithm;
import io.tributary.simulation.Engine;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.SimulationStoppedException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Starting Spark for a simulation: what fails before any SparkContext exists. */
class SparkEngineProviderTest {
  private static SimulationSettings on(String master) {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(4).clientsPerRound(2)
        .rounds(1).threads(1).engine(new Engine.Cluster(master, Map.of(), 0)).build();
  }

  @Test
  void runs_sparkMastersOnly() {
    SparkEngineProvider p = new SparkEngineProvider();
    assertThat(p.runs(new Engine.Cluster("local[2]", Map.of(), 0))).isTrue();
    assertThat(p.runs(new Engine.Cluster("spark://h:7077", Map.of(), 0))).isTrue();
  }

  @Test
  void anUnreachableMaster_stopsTheSimulationWithOneLine() {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> Simulation.builder(on("spark://127.0.0.1:1")).build().run())
        .isInstanceOf(SimulationStoppedException.class)
        .hasMessageStartingWith("Could not start the engine spark://127.0.0.1:1: cannot reach "
            + "the Spark master at 127.0.0.1:1")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(30);
  }

  /**
   * A server on a free port that answers every connection with {@code reply} (after reading
   * what the client sends, when {@code reply} is not empty) or keeps silent.
   */
  private static ServerSocket fakeMaster(byte[] reply) throws IOException {
    ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
    Thread t = new Thread(() -> {
      while (!server.isClosed()) {
        try (Socket c = server.accept()) {
          c.setSoTimeout(10_000);
          if (reply.length > 0) {
            c.getOutputStream().write(reply);
            c.getOutputStream().flush();
          }
          // Hold the connection until the client closes it.
          while (c.getInputStream().read() >= 0) {
            // Discard.
          }
        } catch (IOException e) {
          // The test closed the server, or the client went.
        }
      }
    }, "fake-master");
    t.setDaemon(true);
    t.start();
    return server;
  }

  private static void assertRefusedQuickly(String master, String why) {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> Simulation.builder(on(master)).build().run())
        .isInstanceOf(SimulationStoppedException.class)
        .hasMessageStartingWith("Could not start the engine " + master + ": the server at "
            + master.substring("spark://".length()) + " does not answer as a Spark master (")
        .hasMessageContaining(why)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(20);
  }

  @Test
  void aMasterSpeakingGarbage_stopsTheSimulationWithOneLineWithinSeconds() throws IOException {
    byte[] garbage = new byte[256];
    new Random(3).nextBytes(garbage);
    try (ServerSocket server = fakeMaster(garbage)) {
      assertRefusedQuickly("spark://127.0.0.1:" + server.getLocalPort(), "frame length");
    }
    byte[] http = "HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    try (ServerSocket server = fakeMaster(http)) {
      assertRefusedQuickly("spark://127.0.0.1:" + server.getLocalPort(), "frame length");
    }
  }

  @Test
  void aSilentServer_stopsTheSimulationAfterTheProbesTimeout() throws IOException {
    try (ServerSocket server = fakeMaster(new byte[0])) {
      assertRefusedQuickly("spark://127.0.0.1:" + server.getLocalPort(), "did not answer");
    }
  }

  @Test
  void aFrameOfAnotherMessage_isNotTakenForAMaster() throws IOException {
    // A well-formed Spark frame, but an RpcFailure (type 5) rather than the StreamFailure asked.
    byte[] error = "no such endpoint here, sorry".getBytes(StandardCharsets.US_ASCII);
    java.nio.ByteBuffer frame = java.nio.ByteBuffer.allocate(8 + 1 + 8 + 4 + error.length);
    frame.putLong(frame.capacity()).put((byte) 5).putLong(1).putInt(error.length).put(error);
    try (ServerSocket server = fakeMaster(frame.array())) {
      assertRefusedQuickly("spark://127.0.0.1:" + server.getLocalPort(), "message type 5");
    }
  }

  @Test
  void aPortOutOfRange_isRefusedInOneLine() {
    assertThatThrownBy(() -> Simulation.builder(on("spark://127.0.0.1:99999")).build().run())
        .isInstanceOf(SimulationStoppedException.class)
        .hasMessageContaining("port must be 1 to 65535, got 99999");
  }

  @Test
  void aCustomAlgorithm_isRefusedOnSpark() {
    SimulationSettings withCustom = SimulationSettings.builder()
        .algorithm(FederatedAlgorithm.fedAvg().withName("mine"))
        .model(ModelKind.MCLR)
        .clients(4).clientsPerRound(2).rounds(1).threads(1)
        .engine(new Engine.Cluster("local[2]", Map.of(), 0)).build();
    assertThatThrownBy(() -> new SparkEngineProvider().start(
        (Engine.Cluster) withCustom.engine(), withCustom, () -> null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("composed in code");
  }
}
