package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.tributary.flower.server.Behaviours;
import io.tributary.flower.server.FakeClient;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.server.ServerMemory;
import io.tributary.format.ModelFile;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code tributary server}: a full run against fake clients, and bad input. */
class ServerCommandTest {
  @TempDir
  Path dir;

  @Test
  void server_twoRoundsWithTwoClients_writesMetricsFinalNpzAndModelTags() throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofFloats(Shape.of(2), 0, 0));
    Npz.write(dir.resolve("init.npz"), init, false);
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path out = dir.resolve("run");
    CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of("server",
        "--address", "localhost:" + port, "--rounds", "2", "--min-clients", "2", "--initial",
        dir.resolve("init.npz").toString(), "--out", out.toString()));
    ManagedChannel ch = Grpc.newChannelBuilderForAddress("localhost", port,
        InsecureChannelCredentials.create()).build();
    try {
      // The server may not listen yet: a client that fails to connect is replaced.
      List<FakeClient> clients = List.of(connect(ch, 1, run), connect(ch, 3, run));
      CliRun r = run.get(60, TimeUnit.SECONDS);
      assertThat(r.exitCode()).as(r.err()).isZero();
      assertThat(r.out()).contains("round 1/2: 2 clients, 0 failed, client_loss 2.0000, "
          + "eval_loss 2.0000");
      assertThat(clients).allSatisfy(c -> assertThat(c.received).isNotEmpty());
    } finally {
      ch.shutdownNow();
    }
    List<String> lines = Files.readAllLines(out.resolve("metrics.jsonl"));
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).startsWith("{\"round\": 2, \"client_loss\": 2.0, "
        + "\"eval_loss\": 2.0, \"clients\": 2, \"examples\": 2, \"failures\": 0, "
        + "\"seconds\": ").contains("\"bytes_up\": ");
    assertThat(Npz.read(out.resolve("final.npz")).get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), 4, 4));
    try (ModelFile m = ModelFile.open(out.resolve("model.zip"))) {
      assertThat(m.tags()).containsExactly("round-0001", "round-0002");
    }
    String html = Files.readString(out.resolve("report.html"));
    assertThat(html).startsWith("<!DOCTYPE html>").contains("Completed 2 rounds")
        .contains("2.0000</div><div class=\"k\">final evaluation loss")
        .contains("<tr><th>algorithm</th><td>fedavg</td></tr>")
        .contains("<tr><th>rounds</th><td>2</td></tr>")
        .contains("<tr><th>min clients</th><td>2</td></tr>")
        .contains("<tr><th>address</th><td>localhost:" + port + "</td></tr>")
        .contains("<tr><th>command</th><td>tributary server --address localhost:" + port);
    // Both rounds in the table: client loss and eval loss 2.0 each.
    for (int r = 1; r <= 2; r++) {
      assertThat(html).contains("<tr><td class=\"n\">" + r + "</td><td class=\"n\">2.0000</td>"
          + "<td class=\"n\">2.0000</td><td class=\"n\">2</td>");
    }
    assertThat(html.toLowerCase(java.util.Locale.ROOT)).doesNotContain("<script")
        .doesNotContain("src=").doesNotContain("<link");
  }

  @Test
  void serverResume_fedAdamAfterTwoRounds_endsAsAnUninterruptedRunWithItsOptimizerState()
      throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofFloats(Shape.of(2), 0, 0));
    Npz.write(dir.resolve("init.npz"), init, false);
    Path whole = dir.resolve("whole");
    CliRun uninterrupted = serve("--rounds", "4", "--algorithm", "fedadam", "--initial",
        dir.resolve("init.npz").toString(), "--out", whole.toString());
    assertThat(uninterrupted.exitCode()).as(uninterrupted.err()).isZero();
    Path out = dir.resolve("run");
    CliRun first = serve("--rounds", "2", "--algorithm", "fedadam", "--initial",
        dir.resolve("init.npz").toString(), "--out", out.toString());
    assertThat(first.exitCode()).as(first.err()).isZero();
    try (ModelFile m = ModelFile.open(out.resolve("model.zip"))) {
      assertThat(m.newest().trainingConfig().updaterStateNames()).containsExactly("m", "v");
    }

    CliRun resumed = serve("--rounds", "4", "--algorithm", "fedadam", "--resume",
        out.toString());

    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    assertThat(Npz.read(out.resolve("final.npz")))
        .isEqualTo(Npz.read(whole.resolve("final.npz")));
  }

  @Test
  void serverResume_afterTwoRounds_goesOnFromTheCheckpointWithRoundsThreeAndFour()
      throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofFloats(Shape.of(2), 0, 0));
    Npz.write(dir.resolve("init.npz"), init, false);
    Path out = dir.resolve("run");
    CliRun first = serve("--rounds", "2", "--initial", dir.resolve("init.npz").toString(),
        "--out", out.toString());
    assertThat(first.exitCode()).as(first.err()).isZero();
    // Killed while writing round 3's line: half of it is on disk.
    Files.writeString(out.resolve("metrics.jsonl"), "{\"round\": 3, \"clients\": 2, \"fai",
        java.nio.file.StandardOpenOption.APPEND);

    CliRun resumed = serve("--rounds", "4", "--resume", out.toString());

    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    assertThat(resumed.out()).contains("resuming " + out + " after round 2")
        .contains("round 3/4: 2 clients").contains("round 4/4: 2 clients")
        .doesNotContain("round 1/4");
    List<String> lines = Files.readAllLines(out.resolve("metrics.jsonl"));
    assertThat(lines).hasSize(4);
    for (int r = 1; r <= 4; r++) {
      assertThat(lines.get(r - 1)).startsWith("{\"round\": " + r + ", ");
    }
    // Each round adds each client's shift to the mean: 2 then 4 before, 6 then 8 after.
    assertThat(Npz.read(out.resolve("final.npz")).get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), 8, 8));
    try (ModelFile m = ModelFile.open(out.resolve("model.zip"))) {
      assertThat(m.tags()).containsExactly("round-0001", "round-0002", "round-0003",
          "round-0004");
    }
    // The report of the resumed run has the rounds before the resume too.
    String html = Files.readString(out.resolve("report.html"));
    assertThat(html).contains("Completed 4 rounds").contains("4 rounds</summary>")
        .contains("<tr><th>initial model</th><td>resumed after round 2</td></tr>");
    for (int r = 1; r <= 4; r++) {
      assertThat(html).contains("<tr><td class=\"n\">" + r + "</td>");
    }
  }

  @Test
  void server_noClientJoins_stopsWithAReportOfNoRounds() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path out = dir.resolve("run");

    CliRun r = CliRun.of("server", "--address", "localhost:" + port, "--rounds", "3",
        "--min-clients", "1", "--client-wait", "0.5", "--out", out.toString());

    assertThat(r.exitCode()).as(r.out()).isEqualTo(1);
    String html = Files.readString(out.resolve("report.html"));
    assertThat(html).contains("stopped before round 1").contains("0 rounds</summary>")
        .contains("<tr><th>rounds</th><td>3</td></tr>")
        .contains("<tr><th>initial model</th><td>asked of a client</td></tr>");
  }

  /** The lines of a run's metrics.jsonl with every seconds figure left out. */
  private static List<String> metricsButSeconds(Path run) throws Exception {
    return Files.readAllLines(run.resolve("metrics.jsonl")).stream()
        .map(l -> l.replaceAll("\"[a-z_]*seconds\": [-0-9.eE+]+", "")).toList();
  }

  @Test
  void serverResume_dpAdaptiveClipSeededNoiseAfterTwoRounds_endsBitIdenticalToAnUninterruptedRun()
      throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofFloats(Shape.of(2), 0, 0));
    Npz.write(dir.resolve("init.npz"), init, false);
    List<String> dp = List.of("--dp", "central", "--noise-multiplier", "0.5", "--clip", "1",
        "--adaptive-clip", "--clipped-count-stddev", "1", "--insecure-seeded-noise", "--seed",
        "7");
    Path whole = dir.resolve("whole");
    List<String> a = new java.util.ArrayList<>(List.of("--rounds", "4", "--initial",
        dir.resolve("init.npz").toString(), "--out", whole.toString()));
    a.addAll(dp);
    CliRun uninterrupted = serve(a.toArray(String[]::new));
    assertThat(uninterrupted.exitCode()).as(uninterrupted.err()).isZero();
    Path out = dir.resolve("run");
    List<String> b = new java.util.ArrayList<>(List.of("--rounds", "2", "--initial",
        dir.resolve("init.npz").toString(), "--out", out.toString()));
    b.addAll(dp);
    CliRun first = serve(b.toArray(String[]::new));
    assertThat(first.exitCode()).as(first.err()).isZero();
    try (ModelFile m = ModelFile.open(out.resolve("model.zip"))) {
      assertThat(m.newest().trainingConfig().properties())
          .containsEntry("aggregator/round", "int64[] 2").containsKey("aggregator/clip_norm");
    }

    List<String> c = new java.util.ArrayList<>(List.of("--rounds", "4", "--resume",
        out.toString()));
    c.addAll(dp);
    CliRun resumed = serve(c.toArray(String[]::new));

    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    assertThat(Npz.read(out.resolve("final.npz")))
        .isEqualTo(Npz.read(whole.resolve("final.npz")));
    assertThat(metricsButSeconds(out)).hasSize(4).isEqualTo(metricsButSeconds(whole));
  }

  @Test
  void serverResume_dpCheckpointWithoutDp_refusedNamingTheAggregatorStateBeforeTouchingFiles()
      throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofFloats(Shape.of(2), 0, 0));
    Npz.write(dir.resolve("init.npz"), init, false);
    Path out = dir.resolve("run");
    CliRun first = serve("--rounds", "2", "--initial", dir.resolve("init.npz").toString(),
        "--out", out.toString(), "--dp", "central", "--noise-multiplier", "0.5", "--clip", "1");
    assertThat(first.exitCode()).as(first.err()).isZero();
    byte[] metrics = Files.readAllBytes(out.resolve("metrics.jsonl"));
    byte[] checkpoints = Files.readAllBytes(out.resolve("model.zip"));

    CliRun resumed = CliRun.of("server", "--address", "localhost:0", "--min-clients", "2",
        "--rounds", "4", "--resume", out.toString());

    assertThat(resumed.exitCode()).isEqualTo(2);
    assertThat(resumed.errLines()).hasSize(1);
    assertThat(resumed.errLines()[0]).contains("resume: model.zip's newest checkpoint does not "
        + "fit the run: the algorithm's aggregator keeps no state, but the checkpoint holds "
        + "some");
    assertThat(Files.readAllBytes(out.resolve("metrics.jsonl"))).isEqualTo(metrics);
    assertThat(Files.readAllBytes(out.resolve("model.zip"))).isEqualTo(checkpoints);
  }

  /** {@code tributary server} with two honest fake clients (shifts 1 and 3) on a free port. */
  private static CliRun serve(String... args) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    List<String> all = new java.util.ArrayList<>(List.of("server", "--address",
        "localhost:" + port, "--min-clients", "2"));
    all.addAll(List.of(args));
    CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(
        () -> CliRun.of(all.toArray(String[]::new)));
    ManagedChannel ch = Grpc.newChannelBuilderForAddress("localhost", port,
        InsecureChannelCredentials.create()).build();
    try {
      connect(ch, 1, run);
      connect(ch, 3, run);
      return run.get(60, TimeUnit.SECONDS);
    } finally {
      ch.shutdownNow();
    }
  }

  private static FakeClient connect(ManagedChannel ch, int shift, CompletableFuture<CliRun> run)
      throws Exception {
    // Retry against a deadline, not a count: a loaded machine may take seconds to bring the
    // server up.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline && !run.isDone()) {
      FakeClient c = new FakeClient(ch, new Metadata(), Behaviours.honest(shift, 1));
      try {
        c.closed.get(100, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException stillConnected) {
        return c;
      }
      if (!c.received.isEmpty()) {
        // It was connected: the server spoke to it, and the whole run (two rounds of a tiny
        // model) ended and closed its stream within the 100 ms this probe waited.
        return c;
      }
      // Refused at once (the server is not listening yet, and the channel fails fast while it
      // backs off): wait a little, so that the attempts span a slow server start.
      Thread.sleep(50);
    }
    throw new AssertionError("could not connect: " + (run.isDone() ? run.get().err() : ""));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "--address nope --rounds 1 --min-clients 1|--address must be HOST:PORT",
      "--address h:99999 --rounds 1 --min-clients 1|port of 0 to 65535",
      "--address h:1 --rounds 0 --min-clients 1|rounds must be at least 1",
      "--address h:1 --rounds 1 --min-clients 1 --strategy sgd|unknown algorithm 'sgd'; known: fedavg, fedavgm",
      "--address h:1 --rounds 1 --min-clients 1 --algorithm fedadam --krum-f 1|--krum-f does not apply to --algorithm fedadam",
      "--address h:1 --rounds 1 --min-clients 1 --mu 1|--mu applies only to --algorithm fedprox (fedavg has no proximal term)",
      "--address h:1 --rounds 1 --min-clients 1 --fraction-fit 2|fraction fit must be in (0, 1]",
      "--address h:1 --rounds 1 --min-clients 1 --client-metric accuracy=median|--client-metric must be NAME=HOW",
      "--address h:1 --rounds 1 --min-clients 1 --round-timeout -1|--round-timeout must be a",
      "--address h:1 --rounds 1 --min-clients 1 --tls-cert a.pem|--tls-cert and --tls-key go",
      "--address h:1 --rounds 1 --min-clients 1 --tls-cert a --tls-key b|is not a readable file",
      "--address h:1 --rounds 1 --min-clients 1 --auth-tokens missing.txt|missing.txt: no such",
      "--address h:1 --rounds 1 --min-clients 1 --initial missing.npz|missing.npz: no such",
      "--address h:1 --rounds x --min-clients 1|--rounds",
      "--address h:1 --rounds 3 --min-clients 1 --resume nowhere|has no checkpoint to resume from",
      "--address h:1 --rounds 3 --min-clients 1 --resume a --initial b.npz|leave out --initial",
      "--address h:1 --rounds 3 --min-clients 1 --resume a --out b|leave out --out b",
      "--address h:1 --rounds 1 --min-clients 1 --read-ahead-mb 0|--read-ahead-mb must be 1 to",
      "--address h:1 --rounds 1 --min-clients 1 --read-ahead-mb 4096|--read-ahead-mb must be 1 to",
      "--address h:1 --rounds 1 --min-clients 1 --flow-control-window-kb 63|--flow-control-window-kb must be 64 to 65536, got 63",
      "--address h:1 --rounds 1 --min-clients 1 --flow-control-window-kb 65537|--flow-control-window-kb must be 64 to 65536, got 65537",
      "--address h:1 --rounds 1 --min-clients 1 --max-concurrent-clients 0|--max-concurrent-clients must be 1 to 4096, got 0",
      "--address h:1 --rounds 1 --min-clients 1 --max-concurrent-clients 4097|--max-concurrent-clients must be 1 to 4096, got 4097",
      "--rounds 1 --min-clients 1|--address"})
  void server_badInput_exitsTwoWithOneLine(String args, String message) {
    CliRun r = CliRun.of(("server " + args).split(" "));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().startsWith("tributary server: ")
        .contains(message);
  }

  @Test
  void server_withDp_writesEpsilonAndClipNormPerRoundAndPrintsTheTotal() throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofFloats(Shape.of(2), 0, 0));
    Npz.write(dir.resolve("init.npz"), init, false);
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path out = dir.resolve("run");
    CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of("server",
        "--address", "localhost:" + port, "--rounds", "2", "--min-clients", "2", "--initial",
        dir.resolve("init.npz").toString(), "--out", out.toString(), "--dp", "central",
        "--noise-multiplier", "1", "--clip", "0.5", "--insecure-seeded-noise"));
    ManagedChannel ch = Grpc.newChannelBuilderForAddress("localhost", port,
        InsecureChannelCredentials.create()).build();
    CliRun r;
    try {
      List<FakeClient> clients = List.of(connect(ch, 1, run), connect(ch, 3, run));
      r = run.get(60, TimeUnit.SECONDS);
      assertThat(r.exitCode()).as(r.err()).isZero();
      assertThat(clients).allSatisfy(c -> assertThat(c.received).isNotEmpty());
    } finally {
      ch.shutdownNow();
    }
    assertThat(r.err()).contains("WARNING: --insecure-seeded-noise");
    assertThat(r.out()).containsPattern("privacy: epsilon [0-9.]+ at delta 1.0e-5 after 2 "
        + "rounds");
    List<String> lines = Files.readAllLines(out.resolve("metrics.jsonl"));
    assertThat(lines).hasSize(2).allMatch(l -> l.matches(".*\"algorithm_metrics\": "
        + "\\{\"clip_norm\": 0.5, \"epsilon\": [0-9.]+, \"noise_stddev\": 0.25}.*"));
  }

  @Test
  void server_help_describesEveryOption() {
    CliRun r = CliRun.of("server", "--help");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("--address", "--rounds", "--min-clients", "--strategy", "--mu",
        "--fraction-fit", "--round-timeout", "--initial", "--out", "--seed", "--tls-cert",
        "--tls-key", "--tls-client-ca", "--auth-tokens", "--read-ahead-mb",
        "--max-concurrent-clients", "--flow-control-window-kb");
  }

  @Test
  void config_readAheadMb_reachesTheServerConfig() throws Exception {
    ServerCommand c = new ServerCommand();
    new picocli.CommandLine(c).parseArgs("--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "1", "--read-ahead-mb", "16");

    assertThat(c.config().readAheadBytes()).isEqualTo(16 << 20);
  }

  @Test
  void config_flowControlWindowKb_reachesTheServerConfig() throws Exception {
    ServerCommand c = new ServerCommand();
    new picocli.CommandLine(c).parseArgs("--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "1", "--flow-control-window-kb", "128");

    assertThat(c.config().flowControlWindow()).isEqualTo(128 << 10);
  }

  @Test
  void config_noMemoryOptions_sizesThemFromTheHeap() throws Exception {
    ServerCommand c = new ServerCommand();
    new picocli.CommandLine(c).parseArgs("--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "10");
    ServerMemory heap = ServerMemory.ofThisJvm();

    assertThat(c.config().readAheadBytes()).isEqualTo(heap.readAheadBytes());
    assertThat(c.config().flowControlWindow()).isEqualTo(heap.flowControlWindow(10));
  }

  @Test
  void config_maxConcurrentClients_reachesTheServerConfig() throws Exception {
    ServerCommand c = new ServerCommand();
    new picocli.CommandLine(c).parseArgs("--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "1", "--max-concurrent-clients", "16");
    ServerCommand d = new ServerCommand();
    new picocli.CommandLine(d).parseArgs("--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "1");

    assertThat(c.config().maxConcurrentClients()).isEqualTo(16);
    assertThat(d.config().maxConcurrentClients())
        .isEqualTo(ServerConfig.DEFAULT_MAX_CONCURRENT_CLIENTS).isEqualTo(256);
  }
}
