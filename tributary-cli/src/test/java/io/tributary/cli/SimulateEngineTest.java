package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** simulate --engine: parsed by the CLI, run by an engine the CLI does not depend on. */
class SimulateEngineTest {
  @TempDir Path dir;

  @Test
  void aSparkEngineWithoutTributarySpark_stopsWithOneLine() {
    CliRun run = SimulateCommandTest.simulate(dir.resolve("run"), "--engine",
        "spark://127.0.0.1:1", "--rounds", "1");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("tributary simulate: Could not start the engine "
        + "spark://127.0.0.1:1: the engine spark://127.0.0.1:1 needs tributary-spark on the class "
        + "path");
    assertThat(run.err().lines().filter(l -> l.startsWith("tributary simulate:"))).hasSize(1);
  }

  /**
   * A server that answers in garbage where the Spark master should be: {@code tributary
   * simulate}, as the launcher runs it (a real process over tributary-spark's class path), stops
   * within seconds with one line, and prints nothing of Spark's (no log line, no stack trace).
   */
  @Test
  void aGarbageSpeakingMaster_realProcess_oneLineWithinSecondsAndNoSparkLog() throws Exception {
    Path spark = Path.of("..", "tributary-spark", "target").toAbsolutePath().normalize();
    Path classpath = spark.resolve("classpath.txt");
    Assumptions.assumeTrue(Files.isRegularFile(classpath)
        && Files.isDirectory(spark.resolve("classes/io/tributary/spark")),
        "tributary-spark is not built here (./mvnw package -pl tributary-spark -am -DskipTests)");
    try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
      Thread garbage = new Thread(() -> {
        byte[] bytes = new byte[512];
        new Random(5).nextBytes(bytes);
        while (!server.isClosed()) {
          try (Socket c = server.accept()) {
            c.getOutputStream().write(bytes);
            c.getOutputStream().flush();
            c.setSoTimeout(10_000);
            while (c.getInputStream().read() >= 0) {
              // Discard what the client says.
            }
          } catch (IOException e) {
            // Closed by the test, or the client went.
          }
        }
      }, "garbage-master");
      garbage.setDaemon(true);
      garbage.start();
      String master = "spark://127.0.0.1:" + server.getLocalPort();
      String java = ProcessHandle.current().info().command().orElse("java");
      String cp = System.getProperty("java.class.path") + File.pathSeparator
          + Files.readString(classpath).strip() + File.pathSeparator + spark.resolve("classes");
      long t0 = System.nanoTime();
      Process p = new ProcessBuilder(java, "-cp", cp, Main.class.getName(), "simulate",
          "--engine", master, "--clients", "4", "--clients-per-round", "2", "--rounds", "1",
          "--out", dir.resolve("garbage").toString())
          .redirectOutput(dir.resolve("stdout.txt").toFile()).start();
      String err;
      try {
        err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the process ended").isTrue();
      } finally {
        p.destroyForcibly();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      String out = Files.readString(dir.resolve("stdout.txt"));
      assertThat(p.exitValue()).as(err).isEqualTo(1);
      List<String> lines = err.strip().lines().toList();
      // The run's banner, then the failure's one line.
      assertThat(lines).as(err).hasSize(2);
      assertThat(lines.get(0)).startsWith("fedavg on digits: ");
      assertThat(lines.get(1)).as(err).isEqualTo("tributary simulate: Could not "
          + "start the engine " + master + ": the server at 127.0.0.1:" + server.getLocalPort()
          + " does not answer as a Spark master (its answer opens with a frame length of "
          + ByteBuffer.wrap(garbageHead()).getLong() + "); check the URL (spark://HOST:PORT of "
          + "the master's RPC port, 7077 by default, not its web UI)");
      assertThat(out).as(out).doesNotContain("Exception").doesNotContain("\tat ")
          .doesNotContain("WARN").doesNotContain("ERROR").doesNotContain("org.apache.spark")
          .doesNotContain("io.netty");
      // A JVM start, the CLI's and a probe: far from Spark's three registration tries of 20 s.
      assertThat(seconds).as("seconds to fail").isLessThan(40);
    }
  }

  private static byte[] garbageHead() {
    byte[] bytes = new byte[512];
    new Random(5).nextBytes(bytes);
    return java.util.Arrays.copyOf(bytes, 8);
  }

  @Test
  void badEngineValues_areUsageErrors() {
    CliRun yarn = SimulateCommandTest.simulate(dir.resolve("a"), "--engine", "yarn");
    assertThat(yarn.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(yarn.err()).contains("--engine must be local, local[N] or spark://HOST:PORT");
    CliRun conf = SimulateCommandTest.simulate(dir.resolve("b"), "--spark-conf", "a=b");
    assertThat(conf.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(conf.err()).contains("--spark-conf applies only to a Spark engine");
  }
}
