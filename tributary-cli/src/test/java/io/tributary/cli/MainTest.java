package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

class MainTest {
  /** A command that runs out of memory, as a server with too small a heap for its clients does. */
  @CommandLine.Command(name = "hungry")
  static final class Hungry implements Runnable {
    @Override
    public void run() {
      throw new OutOfMemoryError("Java heap space");
    }
  }

  /** A command whose subcommand runs out of memory. */
  @CommandLine.Command(name = "top", subcommands = Hungry.class)
  static final class Top implements Runnable {
    @Override
    public void run() {}
  }

  @Test
  void execute_subcommandRunsOutOfMemory_namesTheSubcommand() {
    java.io.StringWriter err = new java.io.StringWriter();
    CommandLine cli = new CommandLine(new Top());
    cli.setErr(new java.io.PrintWriter(err));

    assertThat(Main.execute(cli, new String[] {"hungry"})).isEqualTo(1);
    assertThat(err.toString()).startsWith("tributary hungry: out of memory");
  }

  @Test
  void uncaughtLine_threadDiedOfAnError_namesTheThreadAndTheErrorOnOneLine() {
    assertThat(Main.uncaughtLine("grpc-default-executor-7",
        new OutOfMemoryError("Java heap space"), false))
        .isEqualTo("tributary: thread grpc-default-executor-7 stopped: OutOfMemoryError: Java"
            + " heap space (--verbose prints the stack trace)");
    assertThat(Main.uncaughtLine("t", new IllegalStateException("a\nb"), true))
        .isEqualTo("tributary: thread t stopped: IllegalStateException: a b");
  }

  /** What an uncaught throwable on thread {@code thread} left: the error stream and the halts. */
  private record Stopped(String err, List<Integer> halted) {
    static Stopped by(CommandLine cli, boolean verbose, String thread, Throwable t) {
      java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
      List<Integer> halted = new ArrayList<>();
      Main.uncaughtHandler(cli, verbose, new java.io.PrintStream(err, true), halted::add)
          .uncaughtException(new Thread(thread), t);
      return new Stopped(err.toString(), halted);
    }
  }

  @Test
  void uncaughtHandler_libraryThreadOutOfMemory_linesThenHaltsWithStatusOne() {
    CommandLine cli = new CommandLine(new Top());
    cli.parseArgs("hungry");

    Stopped s = Stopped.by(cli, false, "grpc-default-executor-3",
        new OutOfMemoryError("Java heap space"));

    assertThat(s.halted()).containsExactly(1);
    assertThat(s.err().lines()).containsExactly(
        "tributary: thread grpc-default-executor-3 stopped: OutOfMemoryError: Java heap space"
            + " (--verbose prints the stack trace)",
        Main.outOfMemoryLine("hungry", new OutOfMemoryError("Java heap space")));
    assertThat(s.err()).contains("tributary hungry: out of memory (Java heap space)"
        + " with a heap limit of").doesNotContain("\tat ");
  }

  @Test
  void outOfMemoryLine_directMemory_saysHeapLimitBoundsItUnlessSetApart() {
    String direct = Main.outOfMemoryLine("server", new OutOfMemoryError("failed to allocate"
        + " 2097152 byte(s) of direct memory (used: 534954263, max: 536870912)"));
    String heap = Main.outOfMemoryLine("server", new OutOfMemoryError("Java heap space"));

    assertThat(direct).startsWith("tributary server: out of memory (failed to allocate 2097152"
        + " byte(s) of direct memory (used: 534954263, max: 536870912)) with a heap limit of")
        .contains("-Xmx, which bounds direct memory too unless -XX:MaxDirectMemorySize is set");
    assertThat(heap).contains("give the JVM more with -Xmx (TRIBUTARY_JAVA_OPTS")
        .doesNotContain("MaxDirectMemorySize");
  }

  @Test
  void uncaughtHandler_libraryThreadOtherFailure_oneLineAndGoesOn() {
    Stopped s = Stopped.by(new CommandLine(new Hungry()), false, "t",
        new IllegalStateException("broken"));

    assertThat(s.halted()).isEmpty();
    assertThat(s.err().lines()).containsExactly(
        "tributary: thread t stopped: IllegalStateException: broken (--verbose prints the stack"
            + " trace)");
  }

  @Test
  void uncaughtHandler_verbose_traceAfterTheLine() {
    Stopped s = Stopped.by(new CommandLine(new Hungry()), true, "t",
        new OutOfMemoryError("Direct buffer"));

    assertThat(s.halted()).containsExactly(1);
    assertThat(s.err()).startsWith("tributary: thread t stopped: OutOfMemoryError: Direct"
        + " buffer").contains("\tat ").contains("tributary hungry: out of memory (Direct buffer)");
  }

  @Test
  void execute_commandRunsOutOfMemory_oneLineNamingTheHeapLimitNoTrace() {
    java.io.StringWriter err = new java.io.StringWriter();
    CommandLine cli = new CommandLine(new Hungry());
    cli.setErr(new java.io.PrintWriter(err));

    int status = Main.execute(cli, new String[0]);

    assertThat(status).isEqualTo(1);
    assertThat(err.toString()).startsWith("tributary hungry: out of memory (Java heap space)")
        .contains("heap limit of").contains("-Xmx").doesNotContain("\tat ");
    assertThat(err.toString().lines()).hasSize(1);
  }


  @ParameterizedTest
  @ValueSource(strings = {"", "simulate", "server", "client", "supernode", "relay", "inspect",
      "convert", "spark-cluster"})
  void help_everyCommand_printsUsageAndExitsZero(String command) {
    CliRun run = command.isEmpty() ? CliRun.of("--help") : CliRun.of(command, "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("Usage: tributary" + (command.isEmpty() ? "" : " " + command));
    assertThat(run.err()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"simulate", "server", "client", "supernode", "relay", "inspect",
      "convert", "spark-cluster"})
  void commandLine_namedSubcommand_buildsOnlyThatOne(String command) {
    assertThat(Main.commandLine(new String[] {command, "--help"}).getSubcommands().keySet())
        .containsExactly(command);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "help", "--help", "train"})
  void commandLine_noSubcommandFirst_buildsAllInHelpOrder(String first) {
    String[] args = first.isEmpty() ? new String[0] : new String[] {first};
    assertThat(Main.commandLine(args).getSubcommands().keySet())
        .containsExactly("simulate", "server", "client", "supernode", "relay", "inspect",
            "convert", "spark-cluster", "help");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--version", "-V"})
  void commandLine_loneVersion_buildsNoSubcommand(String flag) {
    assertThat(Main.commandLine(new String[] {flag}).getSubcommands()).isEmpty();
  }

  static Stream<Arguments> sameOutputCases() {
    return Stream.of(
        Arguments.of((Object) new String[] {"--version"}),
        Arguments.of((Object) new String[] {"-V"}),
        Arguments.of((Object) new String[] {"--version", "simulate"}),
        Arguments.of((Object) new String[] {"simulate", "--help"}),
        Arguments.of((Object) new String[] {"server", "--help"}),
        Arguments.of((Object) new String[] {"client", "--help"}),
        Arguments.of((Object) new String[] {"inspect", "--help"}),
        Arguments.of((Object) new String[] {"convert", "--help"}),
        Arguments.of((Object) new String[] {"simulate", "--rounds", "zero"}),
        Arguments.of((Object) new String[] {"simulate", "--no-such-flag"}),
        Arguments.of((Object) new String[] {"client", "--server"}),
        Arguments.of((Object) new String[] {"inspect"}),
        Arguments.of((Object) new String[] {"convert", "a.npz"}));
  }

  @ParameterizedTest
  @MethodSource("sameOutputCases")
  void commandLine_oneSubcommandOrAll_sameOutputAndStatus(String[] args) {
    CliRun one = CliRun.of(args);
    CliRun all = CliRun.on(Main.commandLine(), args);

    assertThat(one.exitCode()).isEqualTo(all.exitCode());
    assertThat(one.out()).isEqualTo(all.out());
    assertThat(one.err()).isEqualTo(all.err());
  }

  /** picocli formats help text with String.format, and warns on stderr about a stray '%'. */
  @Test
  void helpTexts_everyCommandAndOption_areValidFormatStrings() {
    List<String> texts = new ArrayList<>();
    for (CommandLine c : Main.commandLine().getSubcommands().values()) {
      texts.addAll(List.of(c.getCommandSpec().usageMessage().description()));
      for (OptionSpec o : c.getCommandSpec().options()) {
        texts.addAll(List.of(o.description()));
      }
    }
    assertThat(texts).isNotEmpty().allSatisfy(t ->
        assertThatCode(() -> String.format(Locale.ROOT, t)).as(t).doesNotThrowAnyException());
  }

  @Test
  void version_printsProjectVersion() {
    CliRun run = CliRun.of("--version");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("tributary ").doesNotContain("${project.version}", "unknown");
  }

  @Test
  void version_always_namesTheMatrixKernel() {
    CliRun run = CliRun.of("--version");

    // Surefire starts this JVM without jdk.incubator.vector and names no kernel.
    assertThat(run.out()).contains("matrix kernel: java (plain loops;");
  }

  @Test
  void noteGemmProperty_set_saysItIsNoLongerRead() {
    java.io.StringWriter err = new java.io.StringWriter();

    boolean said = Main.noteGemmProperty("openblas", new java.io.PrintWriter(err));

    assertThat(said).isTrue();
    assertThat(err.toString()).startsWith("tributary: -Dtributary.gemm=openblas is no longer read;")
        .doesNotStartWith("WARNING");
  }

  @Test
  void noteGemmProperty_unset_printsNothing() {
    java.io.StringWriter err = new java.io.StringWriter();

    assertThat(Main.noteGemmProperty(null, new java.io.PrintWriter(err))).isFalse();
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void noCommand_printsUsageOnStderrAndExitsTwo() {
    CliRun run = CliRun.of();

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Missing command").contains("Usage: tributary");
  }

  @Test
  void unknownCommand_exitsTwo() {
    CliRun run = CliRun.of("train");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("train");
  }
}
