package io.tributary.bench;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.fleet.FleetTransport;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.http.HttpClient;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Java SuperNodes in one JVM for {@code scripts/run-flower-supernode.sh}: N Tributary
 * {@link SuperNode}s join a Flower SuperLink and answer {@code train} with the arithmetic of the
 * benchmark's numpy ClientApp ({@code flower-bench-app/benchapp/client_app.py}): every array + 1
 * in its own dtype, {@code num-examples} 1, and the handler's start and end (Unix seconds) and
 * {@code impl} "java" as metrics, so the ServerApp can tell the nodes apart and time them.
 *
 * <p>It prints memory lines ({@code MEMORY phase nodes heap_after_gc_bytes heap_committed_bytes
 * rss_bytes}) before
 * starting the nodes, once all are active, and once they have sent {@code REPLIES} replies
 * together (when given), then serves until killed (SIGTERM closes every node: deactivate,
 * unregister).
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.tributary.bench.FlowerSuperNodes HOST:PORT N
 * [REPLIES [TRANSPORT]]}: REPLIES -1 for none; TRANSPORT {@code grpc-rere} (the default) or
 * {@code http}, which reaches Flower 1.27's REST Fleet transport under {@code /api/v0/fleet};
 * over HTTP the nodes share one JDK {@link HttpClient} ({@link SuperNode.Builder#httpClient}),
 * or each has its own with the environment variable {@code SHARED_HTTP=0}.
 */
public final class FlowerSuperNodes {
  private FlowerSuperNodes() {}

  public static void main(String[] args) throws InterruptedException, IOException {
    if (args.length < 2) {
      System.err.println("usage: FlowerSuperNodes HOST:PORT N [REPLIES [grpc-rere|http]]");
      System.exit(2);
    }
    String superlink = args[0];
    int n = Integer.parseInt(args[1]);
    long replies = args.length > 2 ? Long.parseLong(args[2]) : -1;
    FleetTransport transport = args.length > 3 && args[3].equals("http")
        ? FleetTransport.http(FleetTransport.FLEET_REST_V0) : FleetTransport.grpcRere();
    memory("before", 0);
    // evaluate: for a Tributary server, which asks for one after each round; Flower's benchmark
    // ServerApp sends none.
    ClientApp app = ClientApp.builder().train(FlowerSuperNodes::train)
        .evaluate((m, c) -> m.reply(RecordDict.of("metrics", new MetricRecord(Map.of(
            "num-examples", 1L, "loss", 0.0))))).build();
    // Over HTTP the nodes share one JDK client (its selector thread, executor and connection
    // pool) unless SHARED_HTTP=0 asks for one client per node, as a node has on its own.
    HttpClient shared = transport instanceof FleetTransport.Http
        && !"0".equals(System.getenv("SHARED_HTTP")) ? SuperNode.newHttpClient() : null;
    System.out.println("HTTP_CLIENTS " + (shared != null ? "shared" : "per-node"));
    List<SuperNode> nodes = new ArrayList<>(n);
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      SuperNode.Builder node = SuperNode.builder(superlink).transport(transport).insecure(true)
          .nodeConfig(Map.of("k", 1L)).clientApp(app);
      if (shared != null) {
        node.httpClient(shared);
      }
      nodes.add(node.build().start());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      for (SuperNode node : nodes) {
        try {
          node.close();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }));
    for (SuperNode node : nodes) {
      if (!node.awaitActive(Duration.ofMinutes(5))) {
        System.err.println("a node did not become active within 5 minutes");
        System.exit(1);
      }
    }
    System.out.printf(Locale.ROOT, "ACTIVE %d nodes in %.2f s%n", n,
        (System.nanoTime() - t0) / 1e9);
    memory("active", n);
    if (replies > 0) {
      while (nodes.stream().mapToLong(SuperNode::repliesSent).sum() < replies) {
        Thread.sleep(200);
      }
      memory("after-round", n);
    }
    Thread.currentThread().join();
  }

  private static Message train(Message m, io.tributary.flower.app.Context ctx)
      throws io.tributary.flower.records.RecordException {
    double start = System.currentTimeMillis() / 1e3;
    ArrayRecord in = (ArrayRecord) m.content().get("arrays");
    Map<String, Tensor> out = new LinkedHashMap<>();
    for (Map.Entry<String, Tensor> e : in.toTensors().entrySet()) {
      out.put(e.getKey(), plusOne(e.getValue()));
    }
    ArrayRecord arrays = ArrayRecord.fromTensors(out);
    Map<String, Object> metrics = new LinkedHashMap<>();
    metrics.put("num-examples", 1L);
    metrics.put("handler-start", start);
    metrics.put("handler-end", System.currentTimeMillis() / 1e3);
    metrics.put("impl-java", 1L);
    return m.reply(RecordDict.of("arrays", arrays, "metrics", new MetricRecord(metrics)));
  }

  /** {@code t + 1} in t's dtype (float32 or float64), as numpy's {@code a + a.dtype.type(1)}. */
  private static Tensor plusOne(Tensor t) {
    TensorBuilder b = TensorBuilder.allocate(t.dtype(), t.shape());
    if (t.dtype() == DType.FLOAT32) {
      for (long i = 0; i < t.size(); i++) {
        b.setFloat(i, t.getFloat(i) + 1f);
      }
    } else {
      for (long i = 0; i < t.size(); i++) {
        b.setDouble(i, t.getDouble(i) + 1d);
      }
    }
    return b.build();
  }

  /**
   * Prints the heap in use after a full collection, the heap committed and the process's resident
   * set (which holds the committed heap's touched pages, Netty's direct buffers, thread stacks).
   */
  private static void memory(String phase, int nodes) throws IOException {
    MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
    System.gc();
    System.gc();
    long heap = mx.getHeapMemoryUsage().getUsed();
    long committed = mx.getHeapMemoryUsage().getCommitted();
    long rss = -1;
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        rss = Long.parseLong(line.replaceAll("\\D", "")) * 1024;
      }
    }
    System.out.printf(Locale.ROOT, "MEMORY %s %d %d %d %d%n", phase, nodes, heap, committed,
        rss);
    System.out.flush();
  }
}
