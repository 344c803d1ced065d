package io.tributary.flower.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.testing.PythonEnv;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Python clients written with grpcio and numpy, speaking Flower's transport.proto as Flower's
 * NumPyClient does, join a relay over Netty; the relay reports their edge to the Java server.
 */
class PythonClientsRelayInteropTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @TempDir
  static Path dir;
  static PythonEnv python;
  static Path script;

  @BeforeAll
  static void generatePythonStubs() throws Exception {
    python = PythonEnv.require("grpc", "grpc_tools", "google.protobuf", "numpy");
    Path root = PythonEnv.projectRoot();
    Files.createDirectories(dir.resolve("gen"));
    python.run(dir, TIMEOUT, "-m", "grpc_tools.protoc",
        "-I" + root.resolve("tributary-flower/src/main/proto"),
        "-I" + root.resolve("tributary-tensor/src/main/proto"),
        "--python_out=" + dir.resolve("gen"), "--grpc_python_out=" + dir.resolve("gen"),
        "flwr/proto/transport.proto", "flwr/proto/parameters.proto").assertOk();
    script = dir.resolve("numpy_client.py");
    try (InputStream in = PythonClientsRelayInteropTest.class
        .getResourceAsStream("/interop/numpy_client.py")) {
      Files.copy(in, script);
    }
  }

  private static CompletableFuture<PythonEnv.Result> startClient(ExecutorService threads,
      int port, int shift, int examples) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return python.run(dir, TIMEOUT, script.toString(), dir.resolve("gen").toString(),
            Integer.toString(port), Integer.toString(shift), Integer.toString(examples));
      } catch (IOException e) {
        throw new CompletionException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CompletionException(e);
      }
    }, threads);
  }

  @Test
  void run_twoPythonClientsBehindARelay_threeRoundsAggregateExactly() throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofFloats(Shape.of(2), 0, 0));
    init.put("b", Tensor.scalar(1f));
    ServerConfig config = ServerConfig.builder().address("localhost", 0).rounds(3)
        .minClients(1).initial(new InitialParameters.Given(init))
        .clientWait(Duration.ofSeconds(60)).shutdownGrace(Duration.ofSeconds(2)).build();
    List<CompletableFuture<PythonEnv.Result>> clients = new ArrayList<>();
    RunResult result;
    CompletableFuture<FlowerClientRunner.Outcome> relayRun;
    try (ExecutorService threads = Executors.newFixedThreadPool(3);
        FlowerServer server = FlowerServer.start(config);
        Relay relay = Relay.start(RelayRig.config(2).address("localhost", 0)
            .upstream("localhost:" + server.port()).clientWait(Duration.ofSeconds(60))
            .build())) {
      clients.add(startClient(threads, relay.port(), 1, 1));
      clients.add(startClient(threads, relay.port(), 3, 3));
      relayRun = CompletableFuture.supplyAsync(() -> {
        try {
          return relay.run();
        } catch (Exception e) {
          throw new CompletionException(e);
        }
      }, threads);
      result = server.run();
      server.close();
      assertThat(relayRun.get(30, TimeUnit.SECONDS))
          .isEqualTo(FlowerClientRunner.Outcome.DISCONNECTED_BY_SERVER);
    }
    // Each round adds the edge's mean update (1 * 1 + 3 * 3) / 4 = 2.5.
    assertThat(result.finalParameters().get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), 7.5f, 7.5f));
    assertThat(result.finalParameters().get("b")).isEqualTo(Tensor.scalar(8.5f));
    assertThat(result.rounds()).allSatisfy(m -> {
      assertThat(m.failures()).isZero();
      assertThat(m.clients()).isEqualTo(1);
      assertThat(m.clientLoss()).isEqualTo(2.5);
      assertThat(m.evalLoss()).isEqualTo(2.5);
    });
    for (CompletableFuture<PythonEnv.Result> c : clients) {
      PythonEnv.Result r = c.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).assertOk();
      assertThat(r.stdout()).contains("fit_ins numpy.ndarray [('<f4', (2,)), ('<f4', ())]")
          .contains("reconnect_ins 0").contains("done");
      assertThat(r.stdout().lines().filter(l -> l.startsWith("fit_ins"))).hasSize(3);
    }
  }
}
