package io.tributary.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The top-level {@code tributary} command, which only dispatches to its subcommands. */
@Command(
    name = "tributary",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Federated learning on the JVM.")
public final class Main implements Runnable {
  /**
   * The subcommands' names, in the order help lists them, each made on demand ({@link
   * #subcommand}): picocli reads every option of every subcommand it is given, about 0.1 s of
   * {@code simulate}'s start-up spent on the others, so a command line that names
   * its subcommand gets only that one. A name maps to its command through a switch rather than a
   * table of constructor references, which would load and link every command class (and the
   * Flower and gRPC types their signatures name) on every run.
   */
  private static final List<String> SUBCOMMANDS = List.of("simulate", "server", "client",
      "supernode", "relay", "inspect", "convert", "spark-cluster", "help");

  @Spec CommandSpec spec;

  /** A new command object for the subcommand {@code name}, one of {@link #SUBCOMMANDS}. */
  private static Object subcommand(String name) {
    return switch (name) {
      case "simulate" -> new SimulateCommand();
      case "server" -> new ServerCommand();
      case "client" -> new ClientCommand();
      case "supernode" -> new SupernodeCommand();
      case "relay" -> new RelayCommand();
      case "inspect" -> new InspectCommand();
      case "convert" -> new ConvertCommand();
      case "spark-cluster" -> new SparkClusterCommand();
      case "help" -> new CommandLine.HelpCommand();
      default -> throw new IllegalArgumentException("no subcommand " + name);
    };
  }

  /** The system property that chose the matrix kernel JVM-wide before a run's kernel did. */
  static final String GEMM_PROPERTY = "tributary.gemm";

  /**
   * The Parquet reader's logger, held so that its level stays set (the logging framework keeps
   * loggers weakly): it notes at INFO whether it found the Vector API, which a user of the
   * command line has no use for on stderr; its warnings still show.
   */
  private static final java.util.logging.Logger PARQUET_LOG =
      java.util.logging.Logger.getLogger("dev.hardwood");

  /** Runs the command line and ends the JVM with the command's exit status. */
  public static void main(String[] args) {
    PARQUET_LOG.setLevel(java.util.logging.Level.WARNING);
    CommandLine cli = commandLine(args);
    noteGemmProperty(System.getProperty(GEMM_PROPERTY), cli.getErr());
    boolean verbose = java.util.Arrays.asList(args).contains("--verbose");
    JdkLogging.configure(verbose);
    Thread.setDefaultUncaughtExceptionHandler(uncaughtHandler(cli, verbose, System.err,
        status -> Runtime.getRuntime().halt(status)));
    System.exit(execute(cli, args));
  }

  /**
   * What a thread of the command's libraries (gRPC's executors, Netty's loops) that dies of an
   * uncaught throwable does: the same one line as the command's own errors, not a stack trace
   * (the trace follows with {@code verbose}). One that ran out of memory ends the command with
   * exit status 1 through {@code halt}, after the line {@link #execute} prints for the command's
   * own thread: a server whose transport threads have died would otherwise go on, its clients'
   * streams stalled, collecting garbage in a full heap for minutes. Halting, not exiting: the
   * shutdown hooks would need the memory that ran out; what the run has written stays, as after a
   * kill (checkpoints and models are replaced whole, by renaming a finished file).
   */
  static Thread.UncaughtExceptionHandler uncaughtHandler(CommandLine cli, boolean verbose,
      java.io.PrintStream err, java.util.function.IntConsumer halt) {
    return (thread, t) -> {
      err.println(uncaughtLine(thread.getName(), t, verbose));
      if (verbose) {
        t.printStackTrace(err);
      }
      if (t instanceof OutOfMemoryError e) {
        err.println(outOfMemoryLine(commandName(cli), e));
        err.flush();
        halt.accept(1);
      }
    };
  }

  /** The line for a thread that died of {@code t}; the trace follows it only with --verbose. */
  static String uncaughtLine(String thread, Throwable t, boolean verbose) {
    return "tributary: thread " + thread + " stopped: " + describe(t)
        + (verbose ? "" : " (--verbose prints the stack trace)");
  }

  /** {@code t}'s simple class name and message, on one line. */
  private static String describe(Throwable t) {
    String what = t.getMessage() == null ? t.getClass().getSimpleName()
        : t.getClass().getSimpleName() + ": " + t.getMessage();
    return what.replaceAll("\\R", " ");
  }

  /**
   * Executes {@code cli}; a JVM that runs out of memory ends the command with one line that says
   * so, the heap's limit and how to raise it, not a stack trace: the heap a run is given is a
   * setting (a server's needs grow with its clients, docs/flower.md), not a fault in the command.
   */
  static int execute(CommandLine cli, String[] args) {
    try {
      return cli.execute(args);
    } catch (OutOfMemoryError e) {
      java.io.PrintWriter err = cli.getErr();
      err.println(outOfMemoryLine(commandName(cli), e));
      err.flush();
      return 1;
    }
  }

  /**
   * The line that ends {@code command} when the JVM runs out of memory, naming the limit: the
   * heap's, or for direct buffers (gRPC's transport) the one their message names, which is the
   * heap's size unless {@code -XX:MaxDirectMemorySize} sets another.
   */
  static String outOfMemoryLine(String command, OutOfMemoryError e) {
    String detail = e.getMessage() == null ? "no detail" : e.getMessage().replaceAll("\\R", " ");
    boolean direct = detail.contains("direct memory") || detail.contains("Direct buffer");
    return "tributary " + command + ": out of memory (" + detail + ") with a heap limit of "
        + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB; give the JVM more with -Xmx"
        + (direct ? ", which bounds direct memory too unless -XX:MaxDirectMemorySize is set" : "")
        + " (TRIBUTARY_JAVA_OPTS=-Xmx4g for ./tributary)";
  }

  /** The name of the (sub)command {@code cli} ran, or its own name before it parsed one. */
  private static String commandName(CommandLine cli) {
    CommandLine.ParseResult parsed = cli.getParseResult();
    if (parsed == null) {
      return cli.getCommandName();
    }
    while (parsed.hasSubcommand()) {
      parsed = parsed.subcommand();
    }
    return parsed.commandSpec().name();
  }

  /**
   * Says, in one line on {@code err}, that {@code -Dtributary.gemm} ({@code value}, null when
   * unset) is no longer read, so that a run which used to get OpenBLAS from it does not get the
   * Java kernels silently; returns whether it said so.
   */
  static boolean noteGemmProperty(String value, java.io.PrintWriter err) {
    if (value == null) {
      return false;
    }
    err.println("tributary: -D" + GEMM_PROPERTY + "=" + value + " is no longer read; the"
        + " matrix kernel is a setting of each run (simulate --kernel, config.json's kernel),"
        + " java by default");
    err.flush();
    return true;
  }

  /** The command line with every subcommand; see {@link #commandLine(String[])}. */
  static CommandLine commandLine() {
    return commandLine(new String[0]);
  }

  /**
   * The command line, ready to execute. A usage error in {@code simulate} or {@code client} is
   * reported in one line, without the usage text: its help is long, and the line names the option
   * at fault.
   *
   * <p>When {@code args} starts with a subcommand's name (other than {@code help}), only that
   * subcommand is built, and for a lone {@code --version} (or {@code -V}) none is: what the
   * command line does and prints is the same either way, and building all of them made
   * {@code --version} take about 0.3 s longer.
   */
  static CommandLine commandLine(String[] args) {
    CommandLine cli = new CommandLine(new Main());
    String first = args.length > 0 ? args[0] : "";
    boolean onlyFirst = SUBCOMMANDS.contains(first) && !first.equals("help");
    boolean versionOnly = args.length == 1 && (first.equals("--version") || first.equals("-V"));
    for (String name : SUBCOMMANDS) {
      if (!versionOnly && (!onlyFirst || name.equals(first))) {
        cli.addSubcommand(name, subcommand(name));
      }
    }
    for (String withAlgorithms : new String[] {"simulate", "server"}) {
      CommandLine sub = cli.getSubcommands().get(withAlgorithms);
      if (sub != null) {
        AlgorithmOptions.describeIn(sub.getCommandSpec());
      }
    }
    CommandLine.IParameterExceptionHandler standard = cli.getParameterExceptionHandler();
    cli.setParameterExceptionHandler((ex, given) -> {
      CommandLine at = ex.getCommandLine();
      String name = at.getCommand() instanceof SimulateCommand ? "simulate"
          : at.getCommand() instanceof ServerCommand ? "server"
          : at.getCommand() instanceof ClientCommand ? "client"
          : at.getCommand() instanceof SupernodeCommand ? "supernode"
          : at.getCommand() instanceof RelayCommand ? "relay" : null;
      if (name == null) {
        return standard.handleParseException(ex, given);
      }
      at.getErr().println("tributary " + name + ": " + ex.getMessage().replaceAll("\\R", " ")
          + " (see tributary " + name + " --help)");
      at.getErr().flush();
      return ExitCodes.BAD_INPUT;
    });
    cli.setExecutionExceptionHandler((ex, at, parsed) -> {
      // Whatever a command did not expect: one line, and the trace only when asked for.
      Object command = at.getCommand();
      String name = at.getCommandName();
      at.getErr().println("tributary " + name + ": internal error: " + describe(ex)
          + (Verbose.requested(command) ? "" : " (--verbose prints the stack trace)"));
      if (Verbose.requested(command)) {
        ex.printStackTrace(at.getErr());
      }
      at.getErr().flush();
      return 1;
    });
    return cli;
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "Missing command: choose one of simulate, server, client, supernode, relay, inspect,"
            + " convert, spark-cluster");
  }
}
