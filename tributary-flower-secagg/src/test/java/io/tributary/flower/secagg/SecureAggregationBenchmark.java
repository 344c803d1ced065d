package io.tributary.flower.secagg;

import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.Backoff;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * One plain round and one SecAgg+ round of {@code N} SDK clients and a model of {@code M}
 * parameters, in one JVM over in-process gRPC: run with
 * {@code -Dtest=SecureAggregationBenchmark -Dtributary.bench.secagg=NxM} (for docs/benchmarks.md,
 * "Secure aggregation (issue 19)"; {@code tributary-benchmarks/scripts/run-secagg.sh} runs it).
 * Each figure is the round's record: its seconds (fit and evaluate) and the bytes the server sent
 * and received, divided by the clients. Several sizes may be given, comma-separated
 * ({@code 20x100000,100x100000}); {@code -Dtributary.bench.secagg.reps=R} (default 1) repeats
 * each size R times, the plain round and the SecAgg+ round taking turns, so a drift in machine
 * speed touches both and the script can take medians.
 */
@EnabledIfSystemProperty(named = "tributary.bench.secagg", matches = "\\d+x\\d+(,\\d+x\\d+)*")
class SecureAggregationBenchmark {
  private static final Backoff QUICK = new Backoff(Duration.ofMillis(20), Duration.ofMillis(50),
      2, 0, 2, 0);

  @Test
  void plainAgainstSecure() throws Exception {
    int reps = Integer.parseInt(System.getProperty("tributary.bench.secagg.reps", "1"));
    for (int rep = 1; rep <= reps; rep++) {
      for (String size : System.getProperty("tributary.bench.secagg").split(",")) {
        String[] nm = size.split("x");
        int n = Integer.parseInt(nm[0]);
        int m = Integer.parseInt(nm[1]);
        System.out.println("secagg bench: " + n + " clients x " + m + " parameters, repetition "
            + rep + ", load at start " + Files.readString(Path.of("/proc/loadavg")).strip());
        for (boolean secure : new boolean[] {false, true}) {
          long t0 = System.nanoTime();
          RoundRecord r = round(n, m, secure);
          double wall = (System.nanoTime() - t0) / 1e9;
          System.out.printf("secagg bench: %s: %d clients: round %.2f s (run %.2f s incl. joining),"
              + " failures %d, per client %.0f bytes down, %.0f bytes up; load %s%n",
              secure ? "SecAgg+" : "plain", n, r.seconds(), wall, r.failures(),
              r.bytesDown() / (double) n, r.bytesUp() / (double) n,
              Files.readString(Path.of("/proc/loadavg")).strip());
        }
      }
    }
  }

  private static RoundRecord round(int n, int m, boolean secure) throws Exception {
    String name = InProcessServerBuilder.generateName();
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.zeros(io.tributary.tensor.DType.FLOAT32, Shape.of(m)));
    ServerConfig.Builder b = ServerConfig.builder().address("localhost", 0).rounds(1)
        .minClients(n).initial(new InitialParameters.Given(init))
        .clientWait(Duration.ofSeconds(120)).roundTimeout(Duration.ofSeconds(600))
        .shutdownGrace(Duration.ofSeconds(2));
    if (secure) {
      b.secureAggregation(SecureAggregation.defaults());
    }
    List<ManagedChannel> channels = new ArrayList<>();
    List<FlowerClientRunner> runners = new ArrayList<>();
    try (FlowerServer server = FlowerServer.start(b.build(),
        InProcessServerBuilder.forName(name), SerializerRegistry.load())) {
      for (int i = 0; i < n; i++) {
        FlowerClient c = new SecureAggregationRoundsTest.Shifting(i / (1000.0 * n), 1 + i % 3);
        ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
        channels.add(channel);
        FlowerClientRunner runner = FlowerClientRunner.builder(secure
            ? new SecAggClientAdapter(c) : c).channel(channel).backoff(QUICK).build();
        runners.add(runner);
        CompletableFuture<FlowerClientRunner.Outcome> unused = runner.start();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (server.connectedClients().size() < n && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      return server.run().rounds().get(0);
    } finally {
      for (FlowerClientRunner r : runners) {
        r.close();
      }
      for (ManagedChannel c : channels) {
        c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }
}
