package io.tributary.runtime.interop;

import io.tributary.tensor.testing.PythonEnv;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real federated-language, from the snapshot in {@code ../shared/peers/}, in a venv that its
 * setup script builds from local wheels under {@code target/fl-venv} of the project root.
 * Missing pieces skip the test with the reason (or fail it under {@code .ci/run}, as every
 * interop test does).
 */
final class FederatedLanguageEnv {
  private final Path python;
  private final String pythonPath;

  private FederatedLanguageEnv(Path python, String pythonPath) {
    this.python = python;
    this.pythonPath = pythonPath;
  }

  /** The venv, made or refreshed now; one setup per JVM is enough. */
  static synchronized FederatedLanguageEnv require() throws IOException, InterruptedException {
    Path root = PythonEnv.projectRoot();
    Path peers = root.resolve("../shared/peers").normalize();
    Path setup = peers.resolve("setup-federated-language.sh");
    if (!Files.isRegularFile(setup)) {
      return PythonEnv.unavailable("federated-language is not at " + peers
          + " (the shared peers folder beside the project)");
    }
    Path venv = root.resolve("target/fl-venv");
    Path log = Files.createDirectories(root.resolve("target")).resolve("fl-venv-setup.log");
    Process p = new ProcessBuilder("bash", setup.toString(), venv.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      return PythonEnv.unavailable("the federated-language setup script took over 10 minutes");
    }
    if (p.exitValue() != 0) {
      return PythonEnv.unavailable("the federated-language setup script failed ("
          + p.exitValue() + "): " + Files.readString(log, StandardCharsets.UTF_8).strip());
    }
    String path = venv.resolveSibling(venv.getFileName() + "-src") + ":"
        + peers.resolve("federated-language/shim");
    return new FederatedLanguageEnv(venv.resolve("bin/python"), path);
  }

  /** Runs the interop script with {@code args}; returns its stdout, failing on a non-zero exit. */
  String run(Path script, Path workDir, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(python.toString(), script.toString()));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(workDir, "fl-out", ".txt");
    Path err = Files.createTempFile(workDir, "fl-err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("PYTHONPATH", pythonPath);
    pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + cmd);
    }
    if (p.exitValue() != 0) {
      throw new AssertionError(cmd + " exited " + p.exitValue() + ":\n"
          + Files.readString(err, StandardCharsets.UTF_8));
    }
    return Files.readString(out, StandardCharsets.UTF_8);
  }
}
