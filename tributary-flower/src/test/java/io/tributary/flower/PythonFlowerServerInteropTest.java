package io.tributary.flower;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.testing.PythonEnv;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our Java client against a minimal Python Flower server built with grpcio from our
 * transport.proto: the server sends NPY tensors as Python Flower does, ignoring our headers, and
 * checks with numpy what comes back.
 */
@Timeout(180)
class PythonFlowerServerInteropTest {
  @TempDir Path dir;

  /** Echoes properties, doubles tensors in fit, sums tensor 0 in evaluate. */
  static final class ArithmeticClient extends AbstractFlowerClient {
    @Override
    public Map<String, Scalar> getProperties(Map<String, Scalar> config) {
      return config;
    }

    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) {
      return List.of(Tensor.ofFloats(Shape.of(2, 3), 0, 1, 2, 3, 4, 5));
    }

    @Override
    public FitRes fit(FitIns ins) throws FlowerClientException {
      List<Tensor> out = new ArrayList<>();
      for (Tensor t : ins.parameters()) {
        TensorBuilder b = TensorBuilder.allocate(t.dtype(), t.shape());
        for (long i = 0; i < t.shape().size(); i++) {
          if (t.dtype() == DType.FLOAT32) {
            b.setFloat(i, 2 * t.getFloat(i));
          } else {
            b.setDouble(i, 2 * t.getAsDouble(i));
          }
        }
        out.add(b.build());
      }
      int epochs = ConfigValues.integer(ins.config(), 1, 1, 100, "local_epochs");
      return new FitRes(out, 10L * epochs, Map.of("loss", Scalar.of(0.125)));
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      Tensor t = ins.parameters().getFirst();
      double sum = 0;
      for (long i = 0; i < t.shape().size(); i++) {
        sum += t.getAsDouble(i);
      }
      return new EvaluateRes((float) sum, t.shape().size(), Map.of());
    }
  }

  @Test
  void run_againstPythonFlowerServer_everyAnswerChecksOutInNumpy() throws Exception {
    PythonEnv python = PythonEnv.require("grpc", "grpc_tools", "google.protobuf", "numpy");
    Path root = PythonEnv.projectRoot();
    Path gen = Files.createDirectories(dir.resolve("gen"));
    python.run(dir, Duration.ofMinutes(2), "-m", "grpc_tools.protoc",
        "-I" + root.resolve("tributary-tensor/src/main/proto"),
        "-I" + root.resolve("tributary-flower/src/main/proto"),
        "--python_out=" + gen, "--grpc_python_out=" + gen,
        "flwr/proto/parameters.proto", "flwr/proto/transport.proto").assertOk();
    Path script = dir.resolve("flower_server.py");
    try (InputStream in = getClass().getResourceAsStream("/interop/flower_server.py")) {
      Files.copy(in, script);
    }
    Path portFile = dir.resolve("port");
    Path log = dir.resolve("server.log");
    Process server = new ProcessBuilder(python.python().toString(), script.toString(),
        gen.toString(), portFile.toString()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.exists(portFile) && server.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(portFile).as("server log: %s", Files.exists(log) ? Files.readString(log) : "")
          .exists();
      String target = "127.0.0.1:" + Files.readString(portFile).strip();

      try (FlowerClientRunner runner = FlowerClientRunner.builder(new ArithmeticClient())
          .target(target).tensorTypes(List.of("proto.ndarray", "numpy.ndarray")).build()) {
        assertThat(runner.run()).isEqualTo(FlowerClientRunner.Outcome.DISCONNECTED_BY_SERVER);
      }
      assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String out = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(out).contains("ALL OK").doesNotContain("FAIL");
      assertThat(out.lines().filter(l -> l.startsWith("OK "))).hasSize(15);
      assertThat(server.exitValue()).isZero();
    } finally {
      server.destroyForcibly();
    }
  }
}
