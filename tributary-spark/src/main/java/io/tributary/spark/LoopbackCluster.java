package io.tributary.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.launcher.JavaModuleOptions;

/**
 * A Spark standalone cluster on this machine's loopback interface: a master and N workers, each a
 * JVM of its own started with {@code java -cp} over the given class path, every address on
 * 127.0.0.1 and every port free when chosen.
 *
 * <pre>{@code
 * try (LoopbackCluster cluster = LoopbackCluster.builder(classpath, dir).workers(2).start()) {
 *   String master = cluster.masterUrl(); // spark://127.0.0.1:PORT
 * }
 * }</pre>
 *
 * <p>{@link #close()} stops every process it started (and the executors the workers started);
 * so does a JVM shutdown hook, unless the cluster was started with {@link Builder#detached()}.
 * Each process logs to {@code master.log} or {@code worker-N.log} in the directory given.
 */
public final class LoopbackCluster implements AutoCloseable {
  private static final Pattern ALIVE_WORKERS = Pattern.compile("\"aliveworkers\"\\s*:\\s*(\\d+)");
  private static final Duration POLL = Duration.ofMillis(200);

  private final String masterUrl;
  private final URI masterUi;
  private final ClusterNode master;
  private final List<ClusterNode> workers;
  private final Thread shutdownHook;

  private LoopbackCluster(String masterUrl, URI masterUi, ClusterNode master,
      List<ClusterNode> workers, Thread shutdownHook) {
    this.masterUrl = masterUrl;
    this.masterUi = masterUi;
    this.master = master;
    this.workers = workers;
    this.shutdownHook = shutdownHook;
  }

  /**
   * A builder of a cluster whose processes run with {@code classpath} (Spark's jars and their
   * dependencies, as {@code target/classpath.txt} lists them) and log into {@code directory}.
   */
  public static Builder builder(List<Path> classpath, Path directory) {
    return new Builder(classpath, directory);
  }

  /** The master's URL, {@code spark://127.0.0.1:PORT}, for {@code --engine}. */
  public String masterUrl() {
    return masterUrl;
  }

  /** The master's web UI, where the workers and applications are shown. */
  public URI masterUi() {
    return masterUi;
  }

  /** The number of workers started. */
  public int workers() {
    return workers.size();
  }

  /** The process ids of the master and the workers, in that order. */
  public List<Long> pids() {
    List<Long> pids = new ArrayList<>();
    pids.add(master.process().pid());
    workers.forEach(w -> pids.add(w.process().pid()));
    return pids;
  }

  /**
   * Kills worker {@code index} (from 0) and the executors it started at once, as a machine that
   * dies would: no orderly shutdown.
   *
   * @throws IndexOutOfBoundsException when there is no such worker
   */
  public void killWorker(int index) {
    ClusterNode w = workers.get(index);
    w.process().descendants().forEach(ProcessHandle::destroyForcibly);
    w.process().destroyForcibly();
    try {
      w.process().waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops every process this cluster started: the workers (with their executors), then the master. */
  @Override
  public void close() {
    stopAll(master, workers);
    if (shutdownHook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // The JVM is shutting down and the hook is running or has run: nothing to remove.
      }
    }
  }

  private static void stopAll(ClusterNode master, List<ClusterNode> workers) {
    workers.reversed().forEach(ClusterNode::stop);
    if (master != null) {
      master.stop();
    }
  }

  /** Collects a cluster's settings; {@link #start()} starts it. */
  public static final class Builder {
    private final List<Path> classpath;
    private final Path directory;
    private int workers = 2;
    private int coresPerWorker = 1;
    private String workerMemory = "2g";
    private Duration startTimeout = Duration.ofSeconds(60);
    private boolean detached;

    private Builder(List<Path> classpath, Path directory) {
      this.classpath = List.copyOf(classpath);
      this.directory = Objects.requireNonNull(directory, "directory");
      if (this.classpath.isEmpty()) {
        throw new IllegalArgumentException("the cluster's class path is empty");
      }
    }

    /** The number of workers (default 2), from 1. */
    public Builder workers(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("a cluster needs at least 1 worker, got " + n);
      }
      this.workers = n;
      return this;
    }

    /** The cores each worker offers (default 1). */
    public Builder coresPerWorker(int cores) {
      if (cores < 1) {
        throw new IllegalArgumentException("a worker needs at least 1 core, got " + cores);
      }
      this.coresPerWorker = cores;
      return this;
    }

    /** The memory each worker offers its executors, in Spark's notation (default {@code 2g}). */
    public Builder workerMemory(String memory) {
      this.workerMemory = Objects.requireNonNull(memory, "memory");
      return this;
    }

    /** How long the master and the workers get to come up (default 60 s). */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /**
     * Leaves the processes running when this JVM exits (no shutdown hook), for {@code
     * spark-cluster start}; {@link LoopbackCluster#close()} still stops them.
     */
    public Builder detached() {
      this.detached = true;
      return this;
    }

    /**
     * Starts the master, then the workers, and waits until every worker has registered.
     *
     * @throws LoopbackClusterException naming the process that did not start or come up in time,
     *     and its log; every process started so far is stopped
     */
    public LoopbackCluster start() {
      try {
        Files.createDirectories(directory);
      } catch (IOException e) {
        throw new UncheckedIOException("could not create " + directory, e);
      }
      Path home = SparkHome.create(directory.resolve("spark-home"), classpath);
      // SPARK_SCALA_VERSION: without it a worker looks for a Spark source build's directories
      // before it reads SPARK_HOME/jars, and every executor fails to start.
      Map<String, String> env = Map.of("SPARK_LOCAL_IP", "127.0.0.1",
          "SPARK_HOME", home.toString(), "SPARK_SCALA_VERSION", "2.13",
          "JAVA_HOME", System.getProperty("java.home"));
      int port = freePort();
      int uiPort = freePort();
      String url = "spark://127.0.0.1:" + port;
      URI ui = URI.create("http://127.0.0.1:" + uiPort + "/json/");
      long deadline = System.nanoTime() + startTimeout.toNanos();
      ClusterNode master = ClusterNode.start("master", command(
          "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port",
          Integer.toString(port), "--webui-port", Integer.toString(uiPort)), env,
          directory.resolve("master.log"));
      List<ClusterNode> started = new ArrayList<>();
      Thread hook = detached ? null : new Thread(() -> stopAll(master, started),
          "tributary-loopback-cluster-stop");
      if (hook != null) {
        Runtime.getRuntime().addShutdownHook(hook);
      }
      LoopbackCluster cluster = new LoopbackCluster(url, URI.create("http://127.0.0.1:" + uiPort),
          master, started, hook);
      try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
          .build()) {
        awaitWorkers(http, ui, master, List.of(), 0, deadline);
        for (int i = 0; i < workers; i++) {
          started.add(ClusterNode.start("worker " + (i + 1), command(
              "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
              "--cores", Integer.toString(coresPerWorker), "--memory", workerMemory,
              "--webui-port", Integer.toString(freePort()),
              "--work-dir", directory.resolve("work").toString(), url), env,
              directory.resolve("worker-" + (i + 1) + ".log")));
        }
        awaitWorkers(http, ui, master, started, workers, deadline);
        return cluster;
      } catch (LoopbackClusterException e) {
        cluster.close();
        throw e;
      } catch (InterruptedException e) {
        cluster.close();
        Thread.currentThread().interrupt();
        throw new LoopbackClusterException("interrupted while the cluster was starting", e);
      }
    }

    private List<String> command(String mainClass, String... args) {
      List<String> c = new ArrayList<>();
      c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      c.add("-Xmx512m");
      c.addAll(List.of(JavaModuleOptions.defaultModuleOptionArray()));
      c.add("-cp");
      c.add(String.join(java.io.File.pathSeparator,
          classpath.stream().map(Path::toString).toList()));
      c.add(mainClass);
      c.addAll(List.of(args));
      return c;
    }

    /** Polls the master's JSON status until {@code expected} workers are alive. */
    private void awaitWorkers(HttpClient http, URI status, ClusterNode master,
        List<ClusterNode> workers, int expected, long deadline) throws InterruptedException {
      String last = "the master's web UI did not answer";
      while (true) {
        checkAlive(master);
        workers.forEach(Builder::checkAlive);
        try {
          String body = http.send(HttpRequest.newBuilder(status).timeout(Duration.ofSeconds(2))
              .build(), HttpResponse.BodyHandlers.ofString()).body();
          Matcher m = ALIVE_WORKERS.matcher(body);
          int alive = m.find() ? Integer.parseInt(m.group(1)) : -1;
          if (alive >= expected) {
            return;
          }
          last = alive + " of " + expected + " workers registered";
        } catch (IOException e) {
          last = "the master's web UI did not answer (" + e.getMessage() + ")";
        }
        if (System.nanoTime() > deadline) {
          throw new LoopbackClusterException("the loopback cluster did not come up within "
              + startTimeout.toSeconds() + " s: " + last + "; see the logs in " + directory);
        }
        Thread.sleep(POLL);
      }
    }

    private static void checkAlive(ClusterNode node) {
      if (!node.process().isAlive()) {
        throw new LoopbackClusterException("the " + node.name() + " exited with status "
            + node.process().exitValue() + " while the cluster was starting: "
            + node.lastLogLine() + " (log: " + node.log() + ")");
      }
    }

    private static int freePort() {
      try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
        return s.getLocalPort();
      } catch (IOException e) {
        throw new LoopbackClusterException("no free port on 127.0.0.1: " + e.getMessage(), e);
      }
    }
  }
}
