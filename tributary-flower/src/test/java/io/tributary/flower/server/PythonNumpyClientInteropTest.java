package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.testing.PythonEnv;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * Python clients written with grpcio and numpy, speaking our transport.proto as Flower's
 * NumPyClient does (no tensor-type header, NPY tensors), train with the Java server over Netty.
 */
class PythonNumpyClientInteropTest {
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
    try (InputStream in = PythonNumpyClientInteropTest.class
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
  void run_twoPythonNumpyClients_threeRoundsAggregateExactly() throws Exception {
    ServerConfig config = Harness.config().rounds(3).minClients(2).build();
    List<CompletableFuture<PythonEnv.Result>> clients = new ArrayList<>();
    RunResult result;
    // One thread per client: both must be connected at once.
    try (ExecutorService threads = Executors.newFixedThreadPool(2);
        FlowerServer server = FlowerServer.start(config)) {
      clients.add(startClient(threads, server.port(), 1, 1));
      clients.add(startClient(threads, server.port(), 3, 3));
      result = server.run();
    }
    // Each round adds (1 * 1 + 3 * 3) / 4 = 2.5.
    assertThat(result.finalParameters().get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), 7.5f, 7.5f));
    assertThat(result.finalParameters().get("b")).isEqualTo(Tensor.scalar(8.5f));
    assertThat(result.rounds()).allSatisfy(m -> {
      assertThat(m.failures()).isZero();
      assertThat(m.clientLoss()).isEqualTo(2.5);
      assertThat(m.evalLoss()).isEqualTo(2.5);
    });
    for (CompletableFuture<PythonEnv.Result> c : clients) {
      PythonEnv.Result r = c.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).assertOk();
      assertThat(r.stdout()).contains("header numpy.ndarray")
          .contains("fit_ins numpy.ndarray [('<f4', (2,)), ('<f4', ())]")
          .contains("reconnect_ins 0").contains("done");
      assertThat(r.stdout().lines().filter(l -> l.startsWith("fit_ins"))).hasSize(3);
    }
  }
}
