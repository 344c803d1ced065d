package io.tributary.flower.fleet;

import io.tributary.tensor.testing.PythonEnv;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Flower 1.27 from {@code ../shared/peers/flower/} (seen from the project root), run from a venv
 * that {@code setup-flower.sh} builds under {@code target/flower-venv} from local wheels. Missing
 * snapshot or Python: the test is skipped with the reason, or fails under {@code .ci/run}
 * ({@link PythonEnv#unavailable}).
 */
public final class FlowerPeer {
  public final Path python;
  public final String pythonPath;

  private FlowerPeer(Path python, String pythonPath) {
    this.python = python;
    this.pythonPath = pythonPath;
  }

  private static FlowerPeer cached;

  public static synchronized FlowerPeer require() throws IOException, InterruptedException {
    if (cached != null) {
      return cached;
    }
    Path root = PythonEnv.projectRoot();
    Path peers = root.getParent() == null ? null : root.getParent().resolve("shared/peers");
    if (peers == null || !Files.isRegularFile(peers.resolve("setup-flower.sh"))) {
      return PythonEnv.unavailable("Flower snapshot not found at " + peers
          + " (../shared/peers/flower from the project root)");
    }
    Path venv = root.resolve("target/flower-venv");
    Process p = new ProcessBuilder("bash", peers.resolve("setup-flower.sh").toString(),
        venv.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
      return PythonEnv.unavailable("setup-flower.sh failed: " + out);
    }
    String pp = peers.resolve("flower/framework/py") + ":" + peers.resolve("flower/shim");
    FlowerPeer peer = new FlowerPeer(venv.resolve("bin/python"), pp);
    Process check = peer.process(root.resolve("target"), Path.of("/dev/null"), "-c",
        "import flwr.server.app, flwr.supernode.cli, flwr.cli.app, numpy");
    if (!check.waitFor(120, TimeUnit.SECONDS) || check.exitValue() != 0) {
      return PythonEnv.unavailable("Flower 1.27 does not import in " + venv);
    }
    cached = peer;
    return peer;
  }

  /** Starts {@code python args...} with Flower on the path, output to {@code log}. */
  public Process process(Path dir, Path log, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(python.toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Map<String, String> env = pb.environment();
    env.put("PYTHONPATH", pythonPath);
    env.put("PYTHONDONTWRITEBYTECODE", "1");
    env.put("PYTHONUNBUFFERED", "1");
    env.put("FLWR_HOME", dir.resolve("flwr-home").toString());
    env.put("PATH", python.getParent() + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    return pb.start();
  }

  /** Runs {@code python args...} to the end and returns its output; fails on a non-zero exit. */
  public String run(Path dir, Duration timeout, String... args)
      throws IOException, InterruptedException {
    Path log = Files.createTempFile(dir, "py", ".log");
    Process p = process(dir, log, args);
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + args[0] + "\n" + Files.readString(log));
    }
    String out = Files.readString(log);
    if (p.exitValue() != 0) {
      throw new AssertionError("python exited " + p.exitValue() + ":\n" + out);
    }
    return out;
  }
}
