package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Builds {@code examples/simple-simulation} against the installed artifacts through the BOM, as a
 * user's project would be built, then runs its {@code Main} in child JVMs: on a plain JVM ({@code
 * java -cp}, no options) and with the options a user may add: the CLI jar's manifest's native
 * access and the documented Vector API opt-in ({@code --add-modules jdk.incubator.vector}, JDK
 * 22+, as {@code TRIBUTARY_JAVA_OPTS} passes it to {@code ./tributary}).
 */
class ExampleProjectIT {
  private static final String MAIN = "com.example.simulation.Main";
  /** The one line the JVM prints for --add-modules jdk.incubator.vector. */
  private static final String INCUBATOR_NOTICE = "WARNING: Using incubator modules";
  private static final Pattern ROUND = Pattern.compile("round (\\d+): train_loss=(\\S+)"
      + " examples=(\\d+) clients=(\\d+) test_loss=(\\S+) test_accuracy=(\\S+)");

  private static Path project;
  private static String classpath;

  @BeforeAll
  static void buildExample() throws Exception {
    project = Build.workDir().resolve("simple-simulation");
    Build.deleteRecursively(project);
    Build.copyRecursively(Build.projectRoot().resolve("examples/simple-simulation"), project);
    Path cpFile = project.resolve("target/classpath.txt");
    String mvn = Build.mavenHome().resolve("bin/mvn").toString();
    Build.Result r = Build.run(project, List.of(mvn, "-B", "-q", "-o",
        "-Dmaven.repo.local=" + Build.exampleRepo(),
        "-Dmaven.repo.local.tail=" + Build.mavenRepo(),
        "-Dtributary.version=" + Build.version(),
        "-Dmdep.outputFile=" + cpFile,
        "package", "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath"), 600);
    assertThat(r.status()).as("mvn package of the example:\n%s\n%s", r.stdout(), r.stderr())
        .isZero();
    classpath = project.resolve("target/classes") + File.pathSeparator
        + Files.readString(cpFile).strip();
  }

  @Test
  void exampleBuild_throughTheBom_usesTheModuleJarsNotTheShadedJar() {
    List<String> jars = List.of(classpath.split(File.pathSeparator));
    for (String m : List.of("tributary-core", "tributary-data", "tributary-graph",
        "tributary-learning", "tributary-learning-graph", "tributary-runtime",
        "tributary-tensor")) {
      assertThat(jars).as(m).contains(Build.installed(m, ".jar").toString());
    }
    assertThat(jars).noneMatch(j -> j.contains("tributary-cli") || j.endsWith("tributary.jar"));
  }

  @Test
  void exampleMain_plainJvm_runsAndPrintsNothingOnStderr() throws Exception {
    Build.Result r = runMain(List.of());
    assertThat(r.stderr()).as("stderr of a plain JVM").isEmpty();
    assertThat(r.status()).isZero();
    assertThat(r.stdout()).startsWith("mean of the clients' readings: 20.5\n");
    List<double[]> rounds = rounds(r.stdout());
    assertThat(rounds).hasSize(3);
    assertThat(rounds.get(2)[5]).as("final test accuracy").isGreaterThan(0.8);
  }

  @Test
  void exampleMain_plainJvmAndOptInOptions_identicalOutput() throws Exception {
    Build.Result plain = runMain(List.of());
    Build.Result optIn = runMain(optInOptions());
    assertThat(optIn.status()).isZero();
    assertThat(withoutIncubatorNotice(optIn.stderr())).isEmpty();
    assertThat(plain.stderr()).isEmpty();
    // The default kernels give the same bits with and without the Vector API and native access.
    assertThat(rounds(plain.stdout())).hasSize(3);
    assertThat(optIn.stdout()).isEqualTo(plain.stdout());
  }

  /** The Vector API opt-in and what the CLI jar's manifest adds to the JVM. */
  private static List<String> optInOptions() {
    List<String> options = new ArrayList<>();
    if (Runtime.version().feature() >= 22) {
      options.addAll(List.of("--add-modules", "jdk.incubator.vector"));
    }
    options.add("--enable-native-access=ALL-UNNAMED");
    return options;
  }

  private static Build.Result runMain(List<String> jvmOptions) throws Exception {
    List<String> command = new ArrayList<>(List.of(Build.java()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classpath, MAIN));
    Build.Result r = Build.run(project, command, 300);
    assertThat(r.status()).as("%s\nstdout:\n%s\nstderr:\n%s", command, r.stdout(), r.stderr())
        .isZero();
    return r;
  }

  private static String withoutIncubatorNotice(String stderr) {
    return stderr.lines().filter(l -> !l.startsWith(INCUBATOR_NOTICE))
        .reduce("", (x, y) -> x + y + "\n");
  }

  private static String firstLine(String s) {
    return s.lines().findFirst().orElse("");
  }

  /** Each round line as {round, train_loss, examples, clients, test_loss, test_accuracy}. */
  private static List<double[]> rounds(String stdout) {
    List<double[]> out = new ArrayList<>();
    for (String line : stdout.lines().toList()) {
      Matcher m = ROUND.matcher(line);
      if (m.matches()) {
        double[] row = new double[6];
        for (int i = 0; i < 6; i++) {
          row[i] = Double.parseDouble(m.group(i + 1));
        }
        out.add(row);
      }
    }
    return out;
  }
}
