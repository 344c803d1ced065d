package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.testing.PythonEnv;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java ClientApp example in docs/flower.md, taken from the doc itself (the Java block after
 * {@code <!-- doc:flower-clientapp -->}) so that it cannot drift: it must compile against this
 * module's API, and, run as the doc says ({@code java MyClientApp.java ADDRESS}) in two JVMs, it
 * must train in a real Flower 1.27 run of Flower's FedAvg.
 */
@Timeout(420)
class FlowerDocExampleTest {
  static final String MARKER = "<!-- doc:flower-clientapp -->\n```java\n";

  @TempDir Path dir;

  /** The example's source, exactly as the doc shows it. */
  static String example() throws IOException {
    String doc = Files.readString(PythonEnv.projectRoot().resolve("docs/flower.md"));
    int a = doc.indexOf(MARKER);
    assertThat(a).as("docs/flower.md has the block %s", MARKER.strip()).isNotNegative();
    int b = doc.indexOf("```\n", a + MARKER.length());
    return doc.substring(a + MARKER.length(), b);
  }

  private Path writeExample() throws IOException {
    return Files.writeString(dir.resolve("MyClientApp.java"), example(),
        StandardCharsets.UTF_8);
  }

  @Test
  void docExample_compiledAgainstTheApi_compilesWithoutWarnings() throws Exception {
    Path source = writeExample();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> problems = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(problems, null,
        StandardCharsets.UTF_8)) {
      Path classes = Files.createDirectories(dir.resolve("classes"));
      boolean ok = javac.getTask(null, files, problems, List.of("-Xlint:all", "-Werror",
          "-proc:none", "-classpath", System.getProperty("java.class.path"), "-d",
          classes.toString()), null, files.getJavaFileObjects(source)).call();

      assertThat(problems.getDiagnostics()).as("javac's messages").isEmpty();
      assertThat(ok).isTrue();
      assertThat(classes.resolve("MyClientApp.class")).exists();
    }
  }

  /** {@code java -cp CLASSPATH MyClientApp.java ARGS...}, as the doc runs it. */
  private static Process runExample(Path source, Path log, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), source.toString()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }

  @Test
  void docExample_twoNodesRunAsTheDocSays_trainInAFlowerFedAvgRun() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    Path source = writeExample();
    Path out = dir.resolve("result.txt");
    try (FlowerDeployment d = new FlowerDeployment(flower, dir)) {
      d.startSuperLink();
      Process a = runExample(source, dir.resolve("example-a.log"), d.fleetAddress(),
          "partition-id=0");
      Process b = runExample(source, dir.resolve("example-b.log"), d.fleetAddress(),
          "partition-id=1");
      try {
        d.flwrRun(Duration.ofMinutes(2), "out-file=\"" + out + "\"");
        d.await(out, Duration.ofMinutes(4));
        List<String> result = Files.readAllLines(out);
        assertThat(result).contains("TRAIN_ROUNDS 1,2,3", "EVALUATE_ROUNDS 1,2,3");
        // both nodes add lr = 0.25 to every parameter in each of the 3 rounds: + 0.75
        assertThat(result).contains("ARRAY b float64 1.25,-0.25,2.75",
            "ARRAY w float32 0.75,1.75,2.75,3.75,4.75,5.75");
      } finally {
        a.destroy();
        b.destroy();
        assertThat(a.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(b.waitFor(60, TimeUnit.SECONDS)).isTrue();
      }
      // SIGTERM ran the example's shutdown hook: both nodes deactivated
      assertThat(Files.readString(d.log("superlink")).split(
          java.util.regex.Pattern.quote("[Fleet.DeactivateNode] Deactivated node_id="), -1))
          .hasSize(3);
    }
  }
}
