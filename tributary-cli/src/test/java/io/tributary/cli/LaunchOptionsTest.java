package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same seed gives the same bits however the JVM is started: a short {@code simulate} run in
 * child JVMs with none of the options that turn on faster kernels, with the Vector API, and with
 * native access (which lets OpenBLAS load), writes byte-identical models by default.
 */
@Timeout(600)
class LaunchOptionsTest {
  private static final List<String> SETTINGS = List.of("--clients", "4", "--clients-per-round",
      "2", "--rounds", "2", "--local-epochs", "1", "--threads", "2", "--seed", "3");

  /** JVM options of each child, by name; none of them names a kernel. */
  private static final Map<String, List<String>> LAUNCHES = new LinkedHashMap<>();

  static {
    LAUNCHES.put("plain", List.of());
    LAUNCHES.put("vector", List.of("--add-modules", "jdk.incubator.vector"));
    LAUNCHES.put("native", List.of("--enable-native-access=ALL-UNNAMED"));
    LAUNCHES.put("both", List.of("--add-modules", "jdk.incubator.vector",
        "--enable-native-access=ALL-UNNAMED"));
  }

  @TempDir static Path dir;
  private static final Map<String, Child> RUNS = new LinkedHashMap<>();

  private record Child(int exitCode, String output, Path out) {}

  @BeforeAll
  static void runEachLaunch() throws Exception {
    for (Map.Entry<String, List<String>> launch : LAUNCHES.entrySet()) {
      RUNS.put(launch.getKey(), simulate(launch.getKey(), launch.getValue()));
    }
  }

  private static Child simulate(String name, List<String> options) throws Exception {
    Path out = dir.resolve(name);
    Path log = dir.resolve(name + ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(options);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "simulate"));
    cmd.addAll(SETTINGS);
    cmd.addAll(List.of("--out", out.toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    // A child must choose its kernel from its own options alone.
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    pb.environment().remove("JDK_JAVA_OPTIONS");
    Process p = pb.start();
    if (!p.waitFor(4, TimeUnit.MINUTES)) {
      p.destroyForcibly().waitFor();
    }
    return new Child(p.isAlive() ? -1 : p.exitValue(),
        Files.readString(log, StandardCharsets.UTF_8), out);
  }

  @Test
  void simulate_startedWithAndWithoutSpeedOptions_writesIdenticalModels() throws IOException {
    byte[] plain = finalModel("plain");
    for (String name : LAUNCHES.keySet()) {
      assertThat(finalModel(name)).as("final.npz of the %s launch", name).isEqualTo(plain);
    }
  }

  @Test
  void simulate_startedWithAndWithoutSpeedOptions_writesIdenticalMetricsButSeconds()
      throws IOException {
    List<String> plain = withoutSeconds("plain");
    for (String name : LAUNCHES.keySet()) {
      assertThat(withoutSeconds(name)).as("metrics.jsonl of the %s launch", name)
          .isEqualTo(plain);
    }
  }

  @Test
  void simulate_onAPlainJvm_printsNoJvmWarning() {
    Child plain = RUNS.get("plain");
    assertThat(plain.exitCode()).as(plain.output()).isZero();
    assertThat(plain.output()).doesNotContain("WARNING");
  }

  private static byte[] finalModel(String name) throws IOException {
    Child run = RUNS.get(name);
    assertThat(run.exitCode()).as("%s: %s", name, run.output()).isZero();
    return Files.readAllBytes(run.out().resolve("final.npz"));
  }

  /** The metrics log with each round's seconds blanked: the one figure timing may change. */
  private static List<String> withoutSeconds(String name) throws IOException {
    Child run = RUNS.get(name);
    assertThat(run.exitCode()).as("%s: %s", name, run.output()).isZero();
    return Files.readAllLines(run.out().resolve("metrics.jsonl")).stream()
        .map(line -> line.replaceAll("\"seconds\": *[-0-9.eE]+", "\"seconds\": _"))
        .toList();
  }
}
