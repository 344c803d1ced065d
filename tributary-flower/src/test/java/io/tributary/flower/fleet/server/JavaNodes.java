package io.tributary.flower.fleet.server;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.fleet.SuperNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Java SuperNodes against a Tributary Fleet server or relay, for tests here and in the modules
 * that use this test-jar: the Flower app project whose client app the Java nodes stand in for,
 * nodes over plain grpc-rere polling every 50 ms, and their ids as the server names them.
 */
public final class JavaNodes {
  private JavaNodes() {}

  /** A project named {@code name} in {@code dir}/app, its client app the Java nodes' stand-in. */
  public static Path project(Path dir, String name) throws IOException {
    return project(dir, name, "");
  }

  /** The same with {@code num-server-rounds} in its run config. */
  public static Path project(Path dir, String name, int serverRounds) throws IOException {
    return project(dir, name, "\n[tool.flwr.app.config]\nnum-server-rounds = " + serverRounds
        + "\n");
  }

  private static Path project(Path dir, String name, String config) throws IOException {
    Path app = dir.resolve("app");
    Files.createDirectories(app.resolve("pkg"));
    Files.writeString(app.resolve("pyproject.toml"), """
        [project]
        name = "%s"
        version = "1.0.0"

        [tool.flwr.app]
        publisher = "tributary"

        [tool.flwr.app.components]
        clientapp = "pkg.client_app:app"
        """.formatted(name) + config);
    Files.writeString(app.resolve("pkg/client_app.py"), "app = None\n");
    return app;
  }

  /** A node of {@code 127.0.0.1:port}: plain text, grpc-rere, polling every 50 ms. */
  public static SuperNode.Builder node(int port) {
    return SuperNode.builder("127.0.0.1:" + port).insecure(true)
        .transport(io.tributary.flower.fleet.FleetTransport.grpcRere())
        .pollInterval(Duration.ofMillis(50));
  }

  /** A started {@link #node} running {@code app}. */
  public static SuperNode start(int port, ClientApp app) throws Exception {
    return node(port).clientApp(app).build().start();
  }

  /** The id the server knows {@code node} by, once it has registered. */
  public static String id(SuperNode node) {
    return "node-" + Long.toUnsignedString(node.nodeId());
  }

  /** Each node's app by the node's id, in the nodes' order. */
  public static Map<String, ClientApp> byId(List<SuperNode> nodes, List<ClientApp> apps) {
    Map<String, ClientApp> out = new LinkedHashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      out.put(id(nodes.get(i)), apps.get(i));
    }
    return out;
  }

  /** Waits up to 30 seconds for {@code count} to reach {@code expected}. */
  public static void await(IntSupplier count, int expected, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (count.getAsInt() < expected) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("waited 30 s for " + expected + " " + what + ", have "
            + count.getAsInt());
      }
      Thread.sleep(20);
    }
  }

  /** Closes every node. */
  public static void closeAll(List<SuperNode> nodes) throws InterruptedException {
    for (SuperNode n : nodes) {
      n.close();
    }
  }
}
