package io.tributary.spark;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * {@code tributary spark-cluster start|stop}: starts a {@link LoopbackCluster} that outlives this
 * command (its master URL and process ids go to {@code DIR/cluster.properties}), or stops the one
 * recorded there. The CLI's {@code spark-cluster} command runs it through {@link
 * SparkClusterTool}, with this module on the class path ({@code ./tributary} puts it there).
 *
 * <pre>
 * spark-cluster start [--workers N] [--cores C] [--memory M] [--dir DIR]
 * spark-cluster stop [--dir DIR]
 * </pre>
 *
 * <p>Without {@code --dir}, the directory is {@code tributary-spark/target/spark-cluster} when
 * this class runs from that module's build ({@code target/classes}); elsewhere {@code --dir} is
 * required. The cluster's processes run with the class path the build wrote for this module
 * ({@link BuildClasspath}, log4j's binding included) when it can be found that way, else with this
 * JVM's.
 */
public final class SparkClusterMain {
  /** The file in the cluster's directory that records a started cluster. */
  public static final String STATE_FILE = "cluster.properties";

  private SparkClusterMain() {}

  /** Runs the command; exits 0 on success, 1 when the cluster fails, 2 on bad arguments. */
  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    int code = run(List.of(args), out, err);
    out.flush();
    err.flush();
    System.exit(code);
  }

  static int run(List<String> args, PrintWriter out, PrintWriter err) {
    ClusterArgs a;
    try {
      a = ClusterArgs.parse(withDefaultDir(args));
    } catch (IllegalArgumentException e) {
      err.println("spark-cluster: " + e.getMessage());
      err.println("usage: spark-cluster start [--workers N] [--cores C] [--memory M] [--dir DIR]"
          + " | stop [--dir DIR]");
      return 2;
    }
    try {
      return a.start() ? start(a, out) : stop(a.dir(), out);
    } catch (LoopbackClusterException | IOException e) {
      err.println("spark-cluster: " + e.getMessage());
      return 1;
    }
  }

  /** {@code args} with {@code --dir} added when it has none and the module's build is found. */
  private static List<String> withDefaultDir(List<String> args) {
    if (args.contains("--dir")) {
      return args;
    }
    return moduleDir().map(m -> {
      List<String> out = new ArrayList<>(args);
      out.add("--dir");
      out.add(m.resolve("target").resolve("spark-cluster").toString());
      return out;
    }).orElse(args);
  }

  /**
   * tributary-spark's directory when this class was loaded from its {@code target/classes} and
   * the build wrote {@code target/classpath.txt} beside it.
   */
  static Optional<Path> moduleDir() {
    try {
      var source = SparkClusterMain.class.getProtectionDomain().getCodeSource();
      if (source == null) {
        return Optional.empty();
      }
      Path classes = Path.of(source.getLocation().toURI());
      Path target = classes.getParent();
      if (!Files.isDirectory(classes) || target == null
          || !Files.isRegularFile(target.resolve("classpath.txt"))) {
        return Optional.empty();
      }
      return Optional.ofNullable(target.getParent());
    } catch (java.net.URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The class path of the cluster's processes; see the class comment. */
  private static List<Path> clusterClasspath() {
    Optional<Path> module = moduleDir();
    if (module.isPresent()) {
      return BuildClasspath.of(module.get());
    }
    List<Path> classpath = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      classpath.add(Path.of(e));
    }
    return classpath;
  }

  private static int start(ClusterArgs a, PrintWriter out) throws IOException {
    Path state = a.dir().resolve(STATE_FILE);
    if (Files.exists(state)) {
      throw new IOException("a cluster is already recorded in " + state + "; stop it first "
          + "(spark-cluster stop --dir " + a.dir() + ")");
    }
    LoopbackCluster c = LoopbackCluster.builder(clusterClasspath(), a.dir()).workers(a.workers())
        .coresPerWorker(a.cores()).workerMemory(a.memory()).detached().start();
    Properties p = new Properties();
    p.setProperty("master", c.masterUrl());
    p.setProperty("ui", c.masterUi().toString());
    // Each process as PID@START (its start time in ms): stop leaves alone a recycled pid.
    p.setProperty("processes", String.join(",", c.pids().stream().map(pid -> pid + "@"
        + ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).map(
            java.time.Instant::toEpochMilli).orElse(0L)).toList()));
    try (var w = Files.newBufferedWriter(state)) {
      p.store(w, "a loopback Spark cluster started by spark-cluster start");
    }
    out.println(c.masterUrl());
    out.println("web UI " + c.masterUi() + ", logs in " + a.dir() + "; stop with "
        + "spark-cluster stop --dir " + a.dir());
    return 0;
  }

  private static int stop(Path dir, PrintWriter out) throws IOException {
    Path state = dir.resolve(STATE_FILE);
    if (!Files.exists(state)) {
      out.println("no cluster recorded in " + dir);
      return 0;
    }
    Properties p = new Properties();
    try (var r = Files.newBufferedReader(state)) {
      p.load(r);
    }
    int stopped = 0;
    for (String entry : p.getProperty("processes", "").split(",")) {
      if (entry.isBlank()) {
        continue;
      }
      String[] pidStart = entry.strip().split("@");
      Optional<ProcessHandle> h = ProcessHandle.of(Long.parseLong(pidStart[0]));
      // Only the processes it started: a recycled pid has another start time.
      if (h.isPresent() && h.get().info().startInstant().map(java.time.Instant::toEpochMilli)
          .map(t -> t == Long.parseLong(pidStart[1])).orElse(false)) {
        h.get().descendants().forEach(ProcessHandle::destroy);
        h.get().destroy();
        h.get().onExit().join();
        stopped++;
      }
    }
    Files.delete(state);
    out.println("stopped " + stopped + " processes of " + p.getProperty("master"));
    return 0;
  }
}
