package io.tributary.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What the build tells these tests (failsafe's system properties), and running a process. */
final class Build {
  /** The library modules: every module a project may depend on, as the BOM lists them. */
  static final List<String> LIBRARY_MODULES = List.of("tributary-tensor", "tributary-core",
      "tributary-data", "tributary-graph", "tributary-format", "tributary-runtime",
      "tributary-learning", "tributary-learning-graph", "tributary-simulation",
      "tributary-privacy", "tributary-flower", "tributary-flower-training",
      "tributary-flower-secagg", "tributary-ui");
  /**
   * Optional engines the BOM pins but no library module depends on: tributary-spark, whose Spark
   * jars stay off every other class path (tributary-it's own included); it is installed for
   * SparkExampleProjectIT alone.
   */
  static final List<String> ENGINE_MODULES = List.of("tributary-spark");

  private Build() {}

  static Path projectRoot() {
    return Path.of(property("tributary.projectRoot"));
  }

  static String version() {
    return property("tributary.version");
  }

  /** The repository that install-file filled with this build's artifacts. */
  static Path exampleRepo() {
    return Path.of(property("tributary.exampleRepo"));
  }

  /** This build's own local repository (third-party artifacts and plugins). */
  static Path mavenRepo() {
    return Path.of(property("tributary.mavenRepo"));
  }

  static Path mavenHome() {
    return Path.of(property("tributary.mavenHome"));
  }

  static Path workDir() {
    return Path.of(property("tributary.workDir"));
  }

  /** The library modules' runtime class path, as maven-dependency-plugin wrote it. */
  static List<Path> libraryClasspath() throws IOException {
    String text = Files.readString(Path.of(property("tributary.libraryClasspath"))).strip();
    return java.util.Arrays.stream(text.split(java.io.File.pathSeparator)).map(Path::of).toList();
  }

  /** The installed file of a module: {@code suffix} is {@code .jar}, {@code -sources.jar}, .... */
  static Path installed(String artifactId, String suffix) {
    return exampleRepo().resolve("io/tributary/" + artifactId + "/" + version() + "/"
        + artifactId + "-" + version() + suffix);
  }

  /** The java launcher of the JVM running the tests. */
  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static String property(String name) {
    String v = System.getProperty(name);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException("system property " + name
          + " is not set; run these tests through Maven (./mvnw verify)");
    }
    return v;
  }

  /** A finished process: its exit status and what it printed. */
  record Result(int status, String stdout, String stderr) {}

  /** Runs {@code command} in {@code dir}, failing after {@code seconds}. */
  static Result run(Path dir, List<String> command, long seconds)
      throws IOException, InterruptedException {
    Files.createDirectories(workDir());
    Path out = Files.createTempFile(workDir(), "out", ".txt");
    Path err = Files.createTempFile(workDir(), "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    // The child JVMs and Maven get no options from the environment: a plain JVM means plain.
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    pb.environment().remove("JDK_JAVA_OPTIONS");
    pb.environment().remove("_JAVA_OPTIONS");
    pb.environment().remove("MAVEN_OPTS");
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process p = pb.start();
    if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(command + " did not finish in " + seconds + " s");
    }
    return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** Copies {@code from} to {@code to}, leaving out its {@code target} directory. */
  static void copyRecursively(Path from, Path to) throws IOException {
    try (java.util.stream.Stream<Path> files = Files.walk(from)) {
      for (Path p : files.filter(p -> !from.relativize(p).startsWith("target")).toList()) {
        Path dest = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest);
        }
      }
    }
  }

  /** Deletes {@code dir} and everything in it, if it exists. */
  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
