package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.app.ClientApp;
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
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
    FleetCliServer server = new FleetCliServer(dir);
    int port = server.port();
    String address = server.address();
    Path app = server.app("plus-k");
    Path run = dir.resolve("run");
    Process first = startServer(server, app, run, dir.resolve("first.log"));

    try (SuperNode a = node(server, 1);
        SuperNode b = node(server, 3)) {
      try {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (inRoundThree.getCount() > 0 && first.isAlive()
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
      // Round 2 was reported done before round 3 was sent: its checkpoint is on disk.
      assertThat(hasTag(run, "round-0002")).isTrue();
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

  /**
   * Killed the moment the server reports round {@code killAfter} done (its progress line or its
   * line of metrics.jsonl, whichever shows first), wherever it then is: the newest checkpoint is
   * that round's or a later one, whole, and the resumed run ends as an uninterrupted one.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void serverResume_killedTheMomentARoundIsReported_resumesFromThatRoundsCheckpointOrLater(
      int killAfter) throws Exception {
    successorListens.countDown();
    FleetCliServer server = new FleetCliServer(dir);
    Path app = server.app("plus-k");
    Path run = dir.resolve("run");
    Path log = dir.resolve("first.log");
    Process first = startServer(server, app, run, log);
    try (SuperNode a = node(server, 1);
        SuperNode b = node(server, 3)) {
      int reported;
      try {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (reported(run, log) < killAfter && first.isAlive()
            && System.nanoTime() < deadline) {
          Thread.sleep(1);
        }
      } finally {
        first.destroyForcibly().waitFor();
      }
      reported = reported(run, log);
      assertThat(reported).as(Files.readString(log)).isGreaterThanOrEqualTo(killAfter);
      int checkpointed;
      try (ModelFile m = ModelFile.open(run.resolve("model.zip"))) {
        checkpointed = (int) m.newest().trainingConfig().round();
        // Every checkpoint up to the newest is whole: each round has its tag.
        assertThat(m.tags()).hasSize(checkpointed);
      }
      assertThat(checkpointed).as("the newest checkpoint when round %d was reported", reported)
          .isGreaterThanOrEqualTo(reported);

      CliRun r = CompletableFuture.supplyAsync(() -> CliRun.of("server",
          "--fleet-api-address", server.address(), "--app", app.toString(), "--rounds", "4",
          "--min-clients", "2", "--resume", run.toString())).get(3, TimeUnit.MINUTES);

      assertThat(r.exitCode()).as(r.err()).isZero();
      if (checkpointed < 4) {
        assertThat(r.out()).contains("resuming " + run + " after round " + checkpointed)
            .contains("round 4/4: 2 clients");
      }
      assertThat(a.failure()).isNull();
      assertThat(b.failure()).isNull();
    }
    List<String> lines = Files.readAllLines(run.resolve("metrics.jsonl"));
    assertThat(lines).hasSize(4);
    for (int i = 0; i < 4; i++) {
      assertThat(lines.get(i)).startsWith("{\"round\": " + (i + 1) + ",");
    }
    assertThat(Npz.read(run.resolve("final.npz")).get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), 8, 8));
  }

  /**
   * The last round the server has said is done: the larger of the complete lines of its
   * metrics.jsonl and the last progress line it printed.
   */
  private static int reported(Path run, Path log) throws IOException {
    int lines = 0;
    Path metrics = run.resolve("metrics.jsonl");
    if (Files.exists(metrics)) {
      byte[] bytes = Files.readAllBytes(metrics);
      for (byte c : bytes) {
        if (c == '\n') {
          lines++;
        }
      }
    }
    int printed = 0;
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("round (\\d+)/4:")
        .matcher(Files.readString(log));
    while (m.find()) {
      printed = Math.max(printed, Integer.parseInt(m.group(1)));
    }
    return Math.max(lines, printed);
  }

  /**
   * Starts {@code server}: 4 rounds of two nodes serving {@code app} from w = [0, 0], writing
   * {@code run}, as a real process, so that it can be killed as kill -9 kills (no shutdown hooks,
   * no goodbye).
   */
  private static Process startServer(FleetCliServer server, Path app, Path run, Path log)
      throws IOException {
    Path init = server.initial(Tensor.ofFloats(Shape.of(2), 0, 0));
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "server", "--fleet-api-address", server.address(), "--app", app.toString(), "--rounds",
        "4", "--min-clients", "2", "--initial", init.toString(), "--out", run.toString()));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
        .start();
  }

  private SuperNode node(FleetCliServer server, float k) {
    return server.node(plus(k)).build().start();
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
