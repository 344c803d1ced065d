package io.tributary.cli;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.fleet.FleetTransport;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A {@code tributary server --fleet-api-address} of the tests, run in this JVM: a free port on
 * the loopback, the app folder it serves, its initial model, and the Java SuperNodes that join it.
 */
final class FleetCliServer {
  private final Path dir;
  private final int port;

  /** A server whose files go under {@code dir}, on a port free now. */
  FleetCliServer(Path dir) throws IOException {
    this.dir = dir;
    try (ServerSocket s = new ServerSocket(0)) {
      this.port = s.getLocalPort();
    }
  }

  /** The Fleet API's port. */
  int port() {
    return port;
  }

  /** The Fleet API's address, {@code 127.0.0.1:port}. */
  String address() {
    return "127.0.0.1:" + port;
  }

  /**
   * Writes the folder {@code dir/name} of a Flower app named {@code name} (version 1.0.0,
   * publisher tributary) with only a {@code pyproject.toml}; {@code components}, if given, are
   * its server app and client app ({@code module:attribute}).
   */
  Path app(String name, String... components) throws IOException {
    Path app = Files.createDirectories(dir.resolve(name));
    String toml = """
        [project]
        name = "%s"
        version = "1.0.0"

        [tool.flwr.app]
        publisher = "tributary"
        """.formatted(name);
    if (components.length == 2) {
      toml += """

          [tool.flwr.app.components]
          serverapp = "%s"
          clientapp = "%s"
          """.formatted(components[0], components[1]);
    } else if (components.length != 0) {
      throw new IllegalArgumentException("a server app and a client app, or neither");
    }
    Files.writeString(app.resolve("pyproject.toml"), toml);
    return app;
  }

  /** Writes {@code dir/init.npz} holding the one array {@code w}; gives its path. */
  Path initial(Tensor w) throws IOException {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", w);
    Path file = dir.resolve("init.npz");
    Npz.write(file, init, false);
    return file;
  }

  /** Runs {@code tributary server --fleet-api-address ADDRESS --app APP ARGS} in this JVM. */
  CompletableFuture<CliRun> start(Path app, String... args) {
    List<String> all = new ArrayList<>(List.of("server", "--fleet-api-address", address(),
        "--app", app.toString()));
    all.addAll(List.of(args));
    return CompletableFuture.supplyAsync(() -> CliRun.of(all.toArray(String[]::new)));
  }

  /**
   * The builder of a SuperNode serving {@code app} at this server over grpc-rere without TLS,
   * polling every 100 ms.
   */
  SuperNode.Builder node(ClientApp app) {
    return SuperNode.builder(address()).insecure(true).transport(FleetTransport.grpcRere())
        .clientApp(app).pollInterval(Duration.ofMillis(100));
  }
}
