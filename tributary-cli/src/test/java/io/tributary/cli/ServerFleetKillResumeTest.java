package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.fleet.FleetTransport;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.format.ModelFile;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary server --fleet-api-address ... --resume}: a Fleet server killed as kill -9
 * would, mid-round, goes on from its last checkpoint when started again on the same address, and
 * the SuperNodes that served it rejoin the new server on their own.
 */
@Timeout(300)
class ServerFleetKillResumeTest {
  @TempDir Path dir;

  /** Set once the first server is gone and its successor listens: round 3 may then go on. */
  private final CountDownLatch successorListens = new CountDownLatch(1);
  /** Counts the nodes that got round 3 from the first server. */
  private final CountDownLatch inRoundThree = new CountDownLatch(2);

  private Path app() throws IOException {
    Path app = Files.createDirectories(dir.resolve("app"));
    Files.writeString(app.resolve("pyproject.toml"), """
        [project]
        name = "plus-k"
        version = "1.0.0"

        [tool.flwr.app]
        publisher = "tributary"
        """);
    return app;
  }

  /**
   * Adds {@code k} to every weight; holds round 3 until the successor listens, so that the first
   * server is killed with both nodes inside that round and their replies reach a server that no
   * longer knows their node ids.
   */
  private ClientApp plus(float k) {
    return ClientApp.builder().train((Message m, io.tributary.flower.app.Context c) -> {
      ConfigRecord config = m.content().configRecords().get("config");
      if (config != null && Long.valueOf(3).equals(config.get("server-round"))
          && successorListens.getCount() > 0) {
        inRoundThree.countDown();
        try {
          successorListens.await(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      Tensor t = ((ArrayRecord) m.content().get("arrays")).toTensors().firstEntry().getValue();
      float[] v = new float[(int) t.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = t.getFloat(i) + k;
      }
      return m.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(Map.of("0",
          Tensor.ofFloats(t.shape(), v))), "metrics", new MetricRecord(Map.of("num-examples",
          1L))));
    }).build();
  }

  @Test
  void serverResume_fleetServerKilledInRoundThree_sameSuperNodesRejoinAndFinishTheRun()
      throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofFloats(Shape.of(2), 0, 0));
    Npz.write(dir.resolve("init.npz"), init, false);
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String address = "127.0.0.1:" + port;
    Path app = app();
    Path run = dir.resolve("run");
    // A real process, so that it can be killed as kill -9 kills (no shutdown hooks, no goodbye).
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "server", "--fleet-api-address", address, "--app", app.toString(), "--rounds", "4",
        "--min-clients", "2", "--initial", dir.resolve("init.npz").toString(), "--out",
        run.toString()));
    Process first = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(dir.resolve("first.log").toFile()).start();

    try (SuperNode a = node(address, 1);
        SuperNode b = node(address, 3)) {
      try {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while ((inRoundThree.getCount() > 0 || !hasTag(run, "round-0002")) && first.isAlive()
            && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertThat(first.isAlive()).as(Files.readString(dir.resolve("first.log"))).isTrue();
        assertThat(inRoundThree.getCount()).as("nodes in round 3").isZero();
      } finally {
        first.destroyForcibly().waitFor();
      }
      long[] idsBefore = {a.nodeId(), b.nodeId()};
      assertThat(Files.readAllLines(run.resolve("metrics.jsonl"))).hasSize(2);
      assertThat(Files.exists(run.resolve("final.npz"))).isFalse();

      CompletableFuture<CliRun> resumed = CompletableFuture.supplyAsync(() -> CliRun.of("server",
          "--fleet-api-address", address, "--app", app.toString(), "--rounds", "4",
          "--min-clients", "2", "--resume", run.toString()));
      awaitListening(port, resumed);
      successorListens.countDown();
      CliRun r = resumed.get(3, TimeUnit.MINUTES);

      assertThat(r.exitCode()).as(r.err()).isZero();
      assertThat(r.out()).contains("resuming " + run + " after round 2")
          .contains("round 3/4: 2 clients").contains("round 4/4: 2 clients");
      assertThat(a.failure()).isNull();
      assertThat(b.failure()).isNull();
      // The new server gave the same node objects new ids: they registered again on their own.
      assertThat(new long[] {a.nodeId(), b.nodeId()}).doesNotContain(idsBefore);
    }
    assertThat(Files.readAllLines(run.resolve("metrics.jsonl"))).hasSize(4);
    // The uninterrupted run: each of the 4 rounds moves w by the mean of +1 and +3.
    assertThat(Npz.read(run.resolve("final.npz")).get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), 8, 8));
  }

  private SuperNode node(String address, float k) {
    return SuperNode.builder(address).insecure(true).transport(FleetTransport.grpcRere())
        .clientApp(plus(k)).pollInterval(Duration.ofMillis(100)).build().start();
  }

  /** Waits until the resumed server accepts connections on {@code port}. */
  private static void awaitListening(int port, CompletableFuture<CliRun> server)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (System.nanoTime() < deadline && !server.isDone()) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return;
      } catch (IOException e) {
        Thread.sleep(50);
      }
    }
  }

  /** Whether the run's model.zip holds {@code tag}; a file being written does not yet. */
  private static boolean hasTag(Path run, String tag) {
    Path model = run.resolve("model.zip");
    if (!Files.exists(model)) {
      return false;
    }
    try (ModelFile m = ModelFile.open(model)) {
      return m.tags().contains(tag);
    } catch (IOException e) {
      return false;
    }
  }
}
