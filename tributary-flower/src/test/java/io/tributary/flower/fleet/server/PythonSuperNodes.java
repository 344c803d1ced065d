package io.tributary.flower.fleet.server;

import io.tributary.flower.fleet.FlowerPeer;
import io.tributary.tensor.testing.PythonEnv;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real Flower 1.27 {@code flower-supernode} processes for tests, with the entry points their
 * isolation mode spawns ({@code flower-superexec}, {@code flwr-clientapp}). Each ClientApp
 * process seeds numpy's global generator from {@code TRIBUTARY_TEST_SEED}, so that an unchanged
 * ClientApp drawing {@code np.random.rand} replies with values the test can compute.
 */
public final class PythonSuperNodes implements AutoCloseable {
  private final FlowerPeer flower;
  private final Path dir;
  private final List<Process> processes = new ArrayList<>();

  public PythonSuperNodes(FlowerPeer flower, Path dir) throws IOException {
    this.flower = flower;
    this.dir = dir;
    Path bin = Files.createDirectories(dir.resolve("bin"));
    script(bin, "flower-supernode", "flwr.supernode.cli", "flower_supernode", "");
    script(bin, "flower-superexec", "flwr.supercore.cli", "flower_superexec", "");
    script(bin, "flwr-clientapp", "flwr.supernode.cli", "flwr_clientapp",
        "import os, numpy; numpy.random.seed(int(os.environ.get(\"TRIBUTARY_TEST_SEED\", \"0\")));"
        + " ");
  }

  private void script(Path bin, String name, String module, String fn, String prelude)
      throws IOException {
    Path p = bin.resolve(name);
    Files.writeString(p, "#!/bin/sh\nexec \"" + flower.python + "\" -c '" + prelude
        + "import sys; from " + module + " import " + fn + "; sys.argv[0] = \"" + name
        + "\"; sys.exit(" + fn + "())' \"$@\"\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  Path log(String name) {
    return dir.resolve(name + ".log");
  }

  /**
   * Starts {@code flower-supernode} against {@code superlink} ({@code host:port}, or
   * {@code http://host:port} with {@code --rest}), its ClientApps seeded with {@code seed};
   * {@code --insecure} unless {@code extra} gives {@code --root-certificates}.
   */
  public Process start(String name, String superlink, long seed, String... extra)
      throws IOException {
    List<String> cmd = new ArrayList<>(List.of(dir.resolve("bin/flower-supernode").toString(),
        "--superlink", superlink, "--clientappio-api-address", "127.0.0.1:" + freePort()));
    if (!List.of(extra).contains("--root-certificates")) {
      cmd.add("--insecure");
    }
    cmd.addAll(List.of(extra));
    Path home = Files.createDirectories(dir.resolve("home-" + name));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log(name).toFile()));
    pb.environment().put("PYTHONPATH", flower.pythonPath);
    pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    pb.environment().put("PYTHONUNBUFFERED", "1");
    pb.environment().put("FLWR_HOME", home.toString());
    pb.environment().put("TRIBUTARY_TEST_SEED", Long.toString(seed));
    pb.environment().put("PATH", dir.resolve("bin") + ":" + flower.python.getParent() + ":"
        + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    Process p = pb.start();
    synchronized (processes) {
      processes.add(p);
    }
    return p;
  }

  /**
   * Flower's quickstart-numpy app folder ({@code ../shared/peers/flower/examples}), which the
   * nodes run unchanged; the test is skipped (or fails where interop is required) without it.
   */
  public static Path quickstartNumpy() {
    Path p = PythonEnv.projectRoot().getParent()
        .resolve("shared/peers/flower/examples/quickstart-numpy");
    if (!Files.isDirectory(p)) {
      return PythonEnv.unavailable("Flower's quickstart-numpy not found at " + p);
    }
    return p;
  }

  /** What {@code np.random.seed(seed); np.random.rand(n)} draws. */
  public double[] rand(long seed, int n) throws IOException, InterruptedException {
    String out = flower.run(dir, Duration.ofSeconds(60), "-c",
        "import numpy as np; np.random.seed(" + seed + "); print(','.join(repr(float(x)) for x in "
        + "np.random.rand(" + n + ")))").strip();
    String[] f = out.lines().reduce((a, b) -> b).orElseThrow().split(",");
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = Double.parseDouble(f[i]);
    }
    return v;
  }

  /** Kills {@code p} and everything it started (its SuperExec and ClientApps). */
  static void kill(Process p) throws InterruptedException {
    List<ProcessHandle> kids = p.descendants().toList();
    p.destroyForcibly();
    for (ProcessHandle k : kids) {
      k.destroyForcibly();
    }
    p.waitFor(10, TimeUnit.SECONDS);
  }

  public String tail(String name) throws IOException {
    Path log = log(name);
    if (!Files.exists(log)) {
      return "(none)";
    }
    String s = Files.readString(log);
    return s.length() > 6000 ? s.substring(s.length() - 6000) : s;
  }

  @Override
  public void close() throws InterruptedException {
    List<Process> all;
    synchronized (processes) {
      all = List.copyOf(processes);
    }
    for (Process p : all) {
      kill(p);
    }
  }
}
