package io.tributary.bench;

import com.google.protobuf.BytesValue;
import com.google.protobuf.UnsafeByteOperations;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One client exchanging a large float32 model with the Java Flower server over Netty on loopback,
 * against gRPC's own ceiling measured in the same fork ({@link GrpcEcho}).
 *
 * <p>{@code flowerRound}: one round of the real server and client stack ({@link FlowerServer},
 * {@link FlowerClientRunner}, a client adding 0.5 to every parameter): FitIns down, FitRes up,
 * EvaluateIns down, so three model transfers, with the server's aggregation in between.
 * {@code grpcEcho}: one {@code BytesValue} of the same size to a bare grpc-java bidi echo and back,
 * two transfers. Both use Flower's message limit (2 GiB - 1). The server and client of each run
 * start before the measured call (setup per invocation) and stop after it. See
 * {@code scripts/run-flower-throughput.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, batchSize = 1)
@Measurement(iterations = 5, batchSize = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx9g", "-XX:MaxDirectMemorySize=4g"})
public class FlowerThroughputBenchmark {
  @Param("1000")
  public int megabytes;

  @Param({"numpy.ndarray", "proto.ndarray"})
  public String tensorType;

  private Tensor model;
  private BytesValue message;
  private FlowerServer server;
  private FlowerClientRunner runner;
  private GrpcEcho echo;

  @Setup(Level.Trial)
  public void data() {
    model = BenchData.randomTensor(DType.FLOAT32, megabytes, 42);
    byte[] bytes = new byte[megabytes * 1_000_000];
    new java.util.SplittableRandom(7).nextBytes(bytes);
    message = BytesValue.newBuilder().setValue(UnsafeByteOperations.unsafeWrap(bytes)).build();
  }

  @Setup(Level.Invocation)
  public void connect() throws IOException, InterruptedException {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", model);
    server = FlowerServer.start(ServerConfig.builder().address("127.0.0.1", 0).rounds(1)
        .minClients(1).initial(new InitialParameters.Given(init))
        .clientWait(Duration.ofSeconds(60)).build());
    runner = FlowerClientRunner.builder(new ShiftClient(0.5f))
        .target("127.0.0.1:" + server.port()).tensorTypes(List.of(tensorType)).build();
    runner.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (server.connectedClients().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(2);
    }
    echo = new GrpcEcho();
  }

  @TearDown(Level.Invocation)
  public void disconnect() throws InterruptedException {
    server.close();
    runner.close();
    echo.close();
  }

  @Benchmark
  public RoundRecord flowerRound() throws Exception {
    RunResult r = server.run();
    RoundRecord m = r.rounds().get(0);
    if (m.failures() != 0 || Math.abs(r.finalParameters().get("w").getFloat(0)
        - model.getFloat(0) - 0.5f) > 1e-6) {
      throw new IllegalStateException("the round failed: " + m);
    }
    return m;
  }

  @Benchmark
  public BytesValue grpcEcho() throws InterruptedException, ExecutionException {
    BytesValue back = echo.roundTrip(message);
    if (back.getValue().size() != message.getValue().size()) {
      throw new IllegalStateException("echo of " + back.getValue().size() + " bytes");
    }
    return back;
  }
}
