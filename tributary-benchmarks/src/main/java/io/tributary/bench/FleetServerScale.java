package io.tributary.bench;

import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FleetServer;
import io.tributary.flower.fleet.server.FleetTransport;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.SequencedMap;

/**
 * The Tributary side of {@code scripts/run-fleet-scale.sh}: a {@link FleetServer} (grpc-rere)
 * serving the benchmark App to N SuperNodes ({@link FlowerSuperNodes}, in other JVMs), R FedAvg
 * rounds of a float32 model of MB MB (the benchmark ServerApp's {@code arange % 1000}); every node
 * replies model + 1, so each round's model must be the last + 1 exactly, which is checked. No
 * round evaluates ({@code fractionEvaluate} 0), as the benchmark ServerApp on Flower's SuperLink
 * trains only: a round is one {@code train} message to every node and every reply back.
 *
 * <p>Prints {@code MEMORY phase nodes heap_after_gc_bytes} before any node joins and once all N
 * are online, {@code ROUND r seconds clients failures cpu_seconds} per round (the server
 * process's CPU time since the last round ended or the run began; then up to five
 * {@code FAILURE reason} lines), and {@code PEAK heap_bytes}
 * (the heap pools' peak use over the rounds).
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.tributary.bench.FleetServerScale PORT APP_DIR N
 * ROUNDS MB}.
 */
public final class FleetServerScale {
  private FleetServerScale() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: FleetServerScale PORT APP_DIR N ROUNDS MB");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    Path app = Path.of(args[1]);
    int n = Integer.parseInt(args[2]);
    int rounds = Integer.parseInt(args[3]);
    int elements = (int) (Double.parseDouble(args[4]) * 1_000_000) / 4;
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, Shape.of(elements));
    for (int i = 0; i < elements; i++) {
      b.setFloat(i, i % 1000);
    }
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", b.build());
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0).rounds(rounds)
        .minClients(n).fractionEvaluate(0).roundTimeout(Duration.ofMinutes(30)).clientWait(Duration.ofMinutes(30))
        .maxConcurrentClients(n)
        .maxMessageSize(64 << 20).initial(InitialParameters.given(init)).build();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(app)).address("127.0.0.1", port)
        .transport(FleetTransport.GRPC_RERE).serveJoin(false).build();
    memory("before", 0);
    try (FleetServer server = FleetServer.start(config, fleet)) {
      System.out.println("LISTENING " + server.fleetPort());
      System.out.flush();
      long t0 = System.nanoTime();
      while (server.connectedClients().size() < n) {
        Thread.sleep(200);
      }
      System.out.printf(Locale.ROOT, "ONLINE %d nodes in %.2f s%n", n,
          (System.nanoTime() - t0) / 1e9);
      memory("online", n);
      for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
        p.resetPeakUsage();
      }
      long[] cpu = {cpuNanos()};
      RunResult r = server.run((RoundRecord m, SequencedMap<String, Tensor> params) -> {
        long now = cpuNanos();
        System.out.printf(Locale.ROOT, "ROUND %d %.3f %d %d %.2f%n", m.round(), m.seconds(),
            m.clients(), m.failures(), (now - cpu[0]) / 1e9);
        cpu[0] = now;
        m.failureReasons().stream().limit(5).forEach(x -> System.out.println("FAILURE " + x));
        System.out.flush();
        Tensor w = params.get(params.firstEntry().getKey());
        for (int i = 0; i < w.size(); i += 997) {
          if (w.getFloat(i) != i % 1000 + m.round()) {
            throw new java.io.IOException("round " + m.round() + ": w[" + i + "] = "
                + w.getFloat(i) + ", not " + (i % 1000 + m.round()));
          }
        }
      });
      long peak = 0;
      for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
        if (p.getType() == MemoryType.HEAP) {
          peak += p.getPeakUsage().getUsed();
        }
      }
      System.out.printf(Locale.ROOT, "PEAK %d%n", peak);
      System.out.println("DONE " + r.rounds().size() + " rounds");
    }
  }

  /** The CPU time this process has used, all threads: what the round cost the server. */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static void memory(String phase, int nodes) {
    System.gc();
    System.gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    System.out.printf(Locale.ROOT, "MEMORY %s %d %d%n", phase, nodes, heap);
    System.out.flush();
  }
}
