package io.tributary.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.spi.ToolProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code spark-cluster start|stop} command: a Spark standalone cluster on 127.0.0.1 for
 * {@code simulate --engine spark://...}. It only reads its arguments: the work is tributary-spark's
 * {@code spark-cluster} {@link ToolProvider} ({@code io.tributary.spark.SparkClusterTool}, that
 * is {@code LoopbackCluster}), found with {@link java.util.ServiceLoader} so that this module
 * does not depend on tributary-spark and Spark's jars stay out of the CLI jar. {@code
 * ./tributary} runs this command over tributary-spark's class path; on a plain {@code java -jar}
 * it says, in one line, that the module is missing.
 */
@Command(
    name = "spark-cluster",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Start or stop a Spark standalone cluster on 127.0.0.1 (a master and N workers, each a JVM"
          + " of its own) for simulate --engine spark://127.0.0.1:PORT.",
      "start prints the master URL and returns; the processes keep running, logging into DIR,"
          + " until stop. Needs tributary-spark on the class path: ./tributary adds it."
    })
final class SparkClusterCommand implements Runnable {
  /** The name tributary-spark's tool is registered under. */
  static final String TOOL = "spark-cluster";

  @Spec CommandSpec spec;

  private final Function<String, Optional<ToolProvider>> tools;

  SparkClusterCommand() {
    this(ToolProvider::findFirst);
  }

  /** A command that looks tools up with {@code tools} (tests). */
  SparkClusterCommand(Function<String, Optional<ToolProvider>> tools) {
    this.tools = tools;
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing command: choose start or stop");
  }

  @Command(name = "start", mixinStandardHelpOptions = true,
      description = "Start the cluster and print its master URL (spark://127.0.0.1:PORT).")
  int start(
      @Option(names = "--workers", paramLabel = "N", defaultValue = "2",
          description = "workers to start (default: ${DEFAULT-VALUE})") int workers,
      @Option(names = "--cores", paramLabel = "C", defaultValue = "1",
          description = "cores each worker offers (default: ${DEFAULT-VALUE})") int cores,
      @Option(names = "--memory", paramLabel = "M", defaultValue = "2g",
          description = "memory each worker offers, in Spark's notation (default:"
              + " ${DEFAULT-VALUE})") String memory,
      @Option(names = "--dir", paramLabel = "DIR",
          description = "logs, work files and cluster.properties (default:"
              + " tributary-spark/target/spark-cluster)") Path dir) {
    for (var e : List.of(java.util.Map.entry("--workers", workers),
        java.util.Map.entry("--cores", cores))) {
      if (e.getValue() < 1) {
        throw new ParameterException(spec.commandLine().getSubcommands().get("start"),
            e.getKey() + " must be a whole number >= 1, got " + e.getValue());
      }
    }
    List<String> args = new ArrayList<>(List.of("start", "--workers", String.valueOf(workers),
        "--cores", String.valueOf(cores), "--memory", memory));
    return runTool(withDir(args, dir));
  }

  @Command(name = "stop", mixinStandardHelpOptions = true,
      description = "Stop the processes of the cluster recorded in DIR.")
  int stop(
      @Option(names = "--dir", paramLabel = "DIR",
          description = "the directory given to start (default:"
              + " tributary-spark/target/spark-cluster)") Path dir) {
    return runTool(withDir(new ArrayList<>(List.of("stop")), dir));
  }

  private static List<String> withDir(List<String> args, Path dir) {
    if (dir != null) {
      args.add("--dir");
      args.add(dir.toString());
    }
    return args;
  }

  private int runTool(List<String> args) {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Optional<ToolProvider> tool = tools.apply(TOOL);
    if (tool.isEmpty()) {
      err.println("tributary spark-cluster: needs tributary-spark on the class path; run it"
          + " through ./tributary, which adds it (building the module on first use)");
      err.flush();
      return 1;
    }
    int code = tool.get().run(out, err, args.toArray(String[]::new));
    out.flush();
    err.flush();
    return code;
  }
}
