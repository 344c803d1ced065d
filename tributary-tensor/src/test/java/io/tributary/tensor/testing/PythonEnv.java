package io.tributary.tensor.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A Python interpreter for interop tests, found or made on demand.
 *
 * <p>Tries, in order: the {@code tributary.python} system property, a venv that an earlier test
 * made under {@code target/interop-venv} of the project root, and {@code python3} on the PATH.
 * When none can import the wanted modules and the machine has local wheel folders
 * ({@code tributary.wheelDirs}, default {@code /opt/pypi/files:/opt/pypi-more/files}), it makes
 * that venv from them. When Python still cannot be had the test is skipped with the reason, or
 * fails when {@code TRIBUTARY_REQUIRE_INTEROP=1} is in the environment (as {@code .ci/run} sets it)
 * or {@code -Dtributary.requireInterop=true} is given.
 */
public final class PythonEnv {
  private static final List<String> VENV_PACKAGES =
      List.of("numpy", "protobuf", "grpcio", "grpcio-tools", "flatbuffers", "pyarrow");

  private final Path python;

  private PythonEnv(Path python) {
    this.python = python;
  }

  /** A Python that imports every module named, or a skipped (or, in CI, failed) test. */
  public static PythonEnv require(String... modules) {
    List<String> tried = new ArrayList<>();
    for (Path candidate : candidates()) {
      if (imports(candidate, modules)) {
        return new PythonEnv(candidate);
      }
      tried.add(candidate.toString());
    }
    String made = makeVenv();
    if (made == null && imports(venvPython(), modules)) {
      return new PythonEnv(venvPython());
    }
    String reason = "Python with " + String.join(", ", modules) + " not available (tried "
        + String.join(", ", tried) + "; venv: " + (made == null ? "no import" : made) + ")";
    return unavailable(reason);
  }

  /**
   * Ends a test whose outside tool or data is missing: a skip showing {@code reason}, or a
   * failure when {@link #interopRequired()} (as under {@code .ci/run}). Never returns normally.
   */
  public static <T> T unavailable(String reason) {
    if (interopRequired()) {
      return Assertions.fail("interop required but " + reason);
    }
    Assumptions.abort(reason);
    throw new AssertionError("unreachable");
  }

  /** True when a missing Python must fail the test: {@code TRIBUTARY_REQUIRE_INTEROP=1} or the property. */
  public static boolean interopRequired() {
    String env = System.getenv("TRIBUTARY_REQUIRE_INTEROP");
    return Boolean.getBoolean("tributary.requireInterop")
        || (env != null && (env.equals("1") || env.equalsIgnoreCase("true")));
  }

  public Path python() {
    return python;
  }

  /** The project root: where {@code mvnw} lives. */
  public static Path projectRoot() {
    String prop = System.getProperty("tributary.projectRoot");
    if (prop != null && !prop.isBlank()) {
      return Path.of(prop).toAbsolutePath();
    }
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("mvnw"))) {
      p = p.getParent();
    }
    return p == null ? Path.of("").toAbsolutePath() : p;
  }

  /** Output of a finished Python process. */
  public record Result(int exitCode, String stdout, String stderr) {
    /** Throws with both streams shown unless the exit code was 0. */
    public Result assertOk() {
      if (exitCode != 0) {
        throw new AssertionError("python exited " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr);
      }
      return this;
    }
  }

  /** Runs {@code python script args...} with a timeout, in {@code workDir}. */
  public Result run(Path workDir, Duration timeout, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(python.toString());
    cmd.addAll(List.of(args));
    return exec(cmd, workDir, timeout);
  }

  private static Result exec(List<String> cmd, Path workDir, Duration timeout)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("py-out", ".txt");
    Path err = Files.createTempFile("py-err", ".txt");
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
      if (workDir != null) {
        pb.directory(workDir.toFile());
      }
      pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
      Process p = pb.start();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("timed out after " + timeout + ": " + cmd);
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static List<Path> candidates() {
    List<Path> c = new ArrayList<>();
    String prop = System.getProperty("tributary.python");
    if (prop != null && !prop.isBlank()) {
      c.add(Path.of(prop));
    }
    if (Files.isExecutable(venvPython())) {
      c.add(venvPython());
    }
    c.add(Path.of("python3"));
    return c;
  }

  private static Path venvDir() {
    return projectRoot().resolve("target").resolve("interop-venv");
  }

  private static Path venvPython() {
    return venvDir().resolve("bin").resolve("python");
  }

  private static boolean imports(Path python, String... modules) {
    String code = "import " + String.join(", ", modules);
    try {
      return exec(List.of(python.toString(), "-c", code), null, Duration.ofSeconds(60)).exitCode() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Makes the interop venv from local wheels; null on success, else why not. */
  private static synchronized String makeVenv() {
    List<String> dirs = new ArrayList<>();
    for (String d : System.getProperty("tributary.wheelDirs", "/opt/pypi/files:/opt/pypi-more/files").split(":")) {
      if (!d.isBlank() && Files.isDirectory(Path.of(d))) {
        dirs.add(d);
      }
    }
    if (dirs.isEmpty()) {
      return "no local wheel folder";
    }
    Path venv = venvDir();
    try {
      Files.createDirectories(venv.getParent());
      try (FileChannel ch = FileChannel.open(venv.getParent().resolve("interop-venv.lock"),
              StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock ignored = ch.lock()) {
        Path complete = venv.resolve(".complete");
        // A venv made with fewer packages (before one was added to the list) is made again.
        if (Files.exists(complete)
            && Files.readString(complete).equals(String.join(" ", VENV_PACKAGES))) {
          return null;
        }
        Result r = exec(List.of("python3", "-m", "venv", "--clear", venv.toString()), null, Duration.ofMinutes(2));
        if (r.exitCode() != 0) {
          return "python3 -m venv failed: " + r.stderr().strip();
        }
        List<String> pip = new ArrayList<>(List.of(venvPython().toString(), "-m", "pip", "install", "-q", "--no-index"));
        for (String d : dirs) {
          pip.add("--find-links");
          pip.add(d);
        }
        pip.addAll(VENV_PACKAGES);
        r = exec(pip, null, Duration.ofMinutes(5));
        if (r.exitCode() != 0) {
          return "pip install failed: " + r.stderr().strip();
        }
        Files.writeString(venv.resolve(".complete"), String.join(" ", VENV_PACKAGES));
        return null;
      }
    } catch (IOException e) {
      return "could not make venv: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
