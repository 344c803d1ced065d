package io.tributary.flower.fleet;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Flower 1.27 deployment for tests: {@code flower-superlink --insecure} on free ports, the
 * test Flower App ({@code fleet/fedapp}) copied out, Python SuperNodes on demand, and
 * {@code flwr run} against the SuperLink's Control API through a Flower config in
 * {@code FLWR_HOME}. Flower's console scripts (which its SuperLink and SuperNode start as
 * subprocesses: {@code flower-superexec}, {@code flwr-serverapp}, {@code flwr-clientapp}) are
 * small wrappers on the {@code PATH} of every process, since the snapshot is used from source.
 * Public for the CLI's tests and the benchmarks.
 */
public final class FlowerDeployment implements AutoCloseable {
  public final FlowerPeer flower;
  public final Path dir;
  public final Path app;
  public final int fleetPort;
  public final int serverAppIoPort;
  public final int controlPort;
  private final List<Process> processes = new ArrayList<>();
  /** With TLS: the CA file, the SuperLink's certificate and key; null for --insecure. */
  private final Path ca;
  private final Path cert;
  private final Path key;
  /** More arguments for {@code flower-superlink}, such as {@code --enable-supernode-auth}. */
  public final List<String> superLinkArgs = new ArrayList<>();
  private Process superlink;

  public FlowerDeployment(FlowerPeer flower, Path dir) throws IOException {
    this(flower, dir, null, null, null);
  }

  /** A deployment whose SuperLink serves TLS with {@code cert}/{@code key} issued by {@code ca}. */
  public FlowerDeployment(FlowerPeer flower, Path dir, Path ca, Path cert, Path key) throws IOException {
    this.ca = ca;
    this.cert = cert;
    this.key = key;
    this.flower = flower;
    this.dir = dir;
    this.fleetPort = freePort();
    this.serverAppIoPort = freePort();
    this.controlPort = freePort();
    Path bin = Files.createDirectories(dir.resolve("bin"));
    script(bin, "flower-superlink", "flwr.server.app", "run_superlink");
    script(bin, "flower-supernode", "flwr.supernode.cli", "flower_supernode");
    script(bin, "flower-superexec", "flwr.supercore.cli", "flower_superexec");
    script(bin, "flwr-serverapp", "flwr.server.serverapp", "flwr_serverapp");
    script(bin, "flwr-clientapp", "flwr.supernode.cli", "flwr_clientapp");
    script(bin, "flwr", "flwr.cli.app", "app");
    Path home = Files.createDirectories(dir.resolve("flwr-home"));
    Files.writeString(home.resolve("config.toml"), """
        [superlink]
        default = "test"

        [superlink.test]
        address = "127.0.0.1:%d"
        %s
        """.formatted(controlPort, ca == null ? "insecure = true"
            : "root-certificates = \"" + ca + "\""));
    app = Files.createDirectories(dir.resolve("fedapp"));
    Files.createDirectories(app.resolve("fedapp"));
    for (String f : List.of("pyproject.toml", "fedapp/__init__.py", "fedapp/server_app.py",
        "fedapp/client_app.py")) {
      try (InputStream in = getClass().getResourceAsStream("/fleet/fedapp/" + f)) {
        Files.copy(in, app.resolve(f));
      }
    }
  }

  private void script(Path bin, String name, String module, String fn) throws IOException {
    Path p = bin.resolve(name);
    Files.writeString(p, "#!/bin/sh\nexec \"" + flower.python + "\" -c 'import sys; from " + module
        + " import " + fn + "; sys.argv[0] = \"" + name + "\"; sys.exit(" + fn + "())' \"$@\"\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  public String fleetAddress() {
    return "127.0.0.1:" + fleetPort;
  }

  public Path log(String name) {
    return dir.resolve(name + ".log");
  }

  private Process start(String logName, String... cmd) throws IOException {
    List<String> args = new ArrayList<>(List.of(cmd));
    String program = dir.resolve("bin").resolve(args.removeFirst()).toString();
    args.addFirst(program);
    ProcessBuilder pb = new ProcessBuilder(args).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log(logName).toFile()));
    pb.environment().put("PYTHONPATH", flower.pythonPath);
    pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    pb.environment().put("PYTHONUNBUFFERED", "1");
    pb.environment().put("FLWR_HOME", dir.resolve("flwr-home").toString());
    pb.environment().put("PATH", dir.resolve("bin") + ":" + flower.python.getParent() + ":"
        + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    Process p = pb.start();
    synchronized (processes) {
      processes.add(p);
    }
    return p;
  }

  /** Starts {@code flower-superlink --insecure} and waits until its Fleet API accepts. */
  public void startSuperLink() throws IOException, InterruptedException {
    List<String> security = ca == null ? List.of("--insecure") : List.of("--ssl-ca-certfile",
        ca.toString(), "--ssl-certfile", cert.toString(), "--ssl-keyfile", key.toString());
    List<String> cmd = new ArrayList<>(List.of("flower-superlink"));
    cmd.addAll(security);
    cmd.addAll(List.of(
        "--fleet-api-address", "127.0.0.1:" + fleetPort,
        "--serverappio-api-address", "127.0.0.1:" + serverAppIoPort,
        "--control-api-address", "127.0.0.1:" + controlPort,
        "--storage-dir", Files.createDirectories(dir.resolve("ffs")).toString()));
    cmd.addAll(superLinkArgs);
    superlink = start("superlink", cmd.toArray(String[]::new));
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < end) {
      if (!superlink.isAlive()) {
        throw new AssertionError("flower-superlink exited:\n" + Files.readString(log("superlink")));
      }
      if (accepts(fleetPort) && accepts(controlPort)) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("flower-superlink did not start:\n"
        + Files.readString(log("superlink")));
  }

  /** Whether the SuperLink's process is running (false before {@link #startSuperLink}). */
  public boolean superLinkAlive() {
    return superlink != null && superlink.isAlive();
  }

  /** Kills the SuperLink and what it started (SIGKILL), as a crash would. */
  public void killSuperLink() throws InterruptedException {
    superlink.descendants().forEach(ProcessHandle::destroyForcibly);
    superlink.destroyForcibly();
    superlink.waitFor(30, TimeUnit.SECONDS);
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while ((accepts(fleetPort) || accepts(controlPort)) && System.nanoTime() < end) {
      Thread.sleep(100);
    }
  }

  private static boolean accepts(int port) {
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Starts a Python {@code flower-supernode --insecure} with node config {@code k}. */
  public Process startPythonSuperNode(String name, int k) throws IOException {
    return start(name, "flower-supernode", "--insecure", "--superlink", fleetAddress(),
        "--clientappio-api-address", "127.0.0.1:" + freePort(), "--node-config", "k=" + k);
  }

  /** Starts a Python {@code flower-supernode --insecure} with {@code --node-config nodeConfig}. */
  public Process startPythonSuperNode(String name, String nodeConfig) throws IOException {
    return start(name, "flower-supernode", "--insecure", "--superlink", fleetAddress(),
        "--clientappio-api-address", "127.0.0.1:" + freePort(), "--node-config", nodeConfig);
  }

  /**
   * Starts a Python {@code flower-supernode --insecure --rest} with node config {@code k}, for a
   * SuperLink started with {@code --fleet-api-type rest}.
   */
  public Process startPythonRestSuperNode(String name, int k) throws IOException {
    return start(name, "flower-supernode", "--insecure", "--rest", "--superlink",
        "http://" + fleetAddress(), "--clientappio-api-address", "127.0.0.1:" + freePort(),
        "--node-config", "k=" + k);
  }

  /** {@code flwr ARGS...} (through the "test" connection where ARGS name it); its output. */
  public String flwr(Duration timeout, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("flwr"));
    cmd.addAll(List.of(args));
    Path log = log("flwr-" + args[0]);
    Process p = start(log.getFileName().toString().replace(".log", ""),
        cmd.toArray(String[]::new));
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("flwr " + args[0] + " timed out:\n" + Files.readString(log));
    }
    String out = Files.readString(log);
    if (p.exitValue() != 0) {
      throw new AssertionError("flwr " + String.join(" ", args) + " exited " + p.exitValue()
          + ":\n" + out);
    }
    return out;
  }

  /** {@code flwr run} of the test app with these run-config overrides; returns its output. */
  public String flwrRun(Duration timeout, String... runConfig) throws IOException, InterruptedException {
    return flwrRun(app, timeout, runConfig);
  }

  /** {@code flwr run} of the Flower App in {@code appDir}; returns its output. */
  public String flwrRun(Path appDir, Duration timeout, String... runConfig)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("flwr", "run", appDir.toString(), "test"));
    for (String c : runConfig) {
      cmd.add("--run-config");
      cmd.add(c);
    }
    Process p = start("flwr-run", cmd.toArray(String[]::new));
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("flwr run timed out:\n" + Files.readString(log("flwr-run")));
    }
    String out = Files.readString(log("flwr-run"));
    if (p.exitValue() != 0) {
      throw new AssertionError("flwr run exited " + p.exitValue() + ":\n" + out);
    }
    return out;
  }

  /** Waits for {@code file} to appear; fails with the SuperLink's log if it does not. */
  public void await(Path file, Duration timeout) throws IOException, InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (!Files.exists(file) && System.nanoTime() < end) {
      if (superlink != null && !superlink.isAlive()) {
        break;
      }
      Thread.sleep(250);
    }
    Thread.sleep(200);
    if (!Files.exists(file)) {
      throw new AssertionError("no " + file.getFileName() + " after " + timeout
          + "\n--- superlink log:\n" + tail(log("superlink"))
          + "\n--- flwr run log:\n" + tail(log("flwr-run")));
    }
  }

  /** The end of a log, without the SuperLink's per-poll lines. */
  public String tail(Path log) throws IOException {
    if (!Files.exists(log)) {
      return "(none)";
    }
    String s = String.join("\n", Files.readAllLines(log).stream()
        .filter(l -> !l.contains("[Fleet.PullMessages]") && !l.contains("/pull-messages ")
            && !l.contains("/send-node-heartbeat ")).toList());
    return s.length() > 20000 ? s.substring(s.length() - 20000) : s;
  }

  /**
   * Kills every process started and everything they started (Flower's SuperExec and the apps it
   * spawns): parents first, so that none can spawn more, then the descendants seen before.
   */
  @Override
  public void close() throws InterruptedException {
    List<Process> ps;
    synchronized (processes) {
      ps = new ArrayList<>(processes);
    }
    List<ProcessHandle> descendants = new ArrayList<>();
    for (Process p : ps) {
      p.descendants().forEach(descendants::add);
    }
    for (Process p : ps) {
      p.destroyForcibly();
    }
    descendants.forEach(ProcessHandle::destroyForcibly);
    for (Process p : ps) {
      p.waitFor(10, TimeUnit.SECONDS);
    }
    for (ProcessHandle h : descendants) {
      try {
        h.onExit().get(10, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        // reported by the caller's leftover check, if any
      }
    }
  }
}
