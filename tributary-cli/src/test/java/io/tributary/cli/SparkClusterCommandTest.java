package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** spark-cluster reads its arguments and hands them to tributary-spark's tool, when there is one. */
class SparkClusterCommandTest {
  /** A stand-in for tributary-spark's tool that records the arguments it gets. */
  private static final class RecordingTool implements ToolProvider {
    final List<List<String>> calls = new ArrayList<>();

    @Override
    public String name() {
      return SparkClusterCommand.TOOL;
    }

    @Override
    public int run(PrintWriter out, PrintWriter err, String... args) {
      calls.add(List.of(args));
      out.println("spark://127.0.0.1:7077");
      return 0;
    }
  }

  private static CliRun run(ToolProvider tool, String... args) {
    CommandLine cli = new CommandLine(new Main());
    cli.addSubcommand("spark-cluster",
        new SparkClusterCommand(name -> Optional.ofNullable(tool)));
    return CliRun.on(cli, args);
  }

  @Test
  void start_withOptions_passesThemToTheTool() {
    RecordingTool tool = new RecordingTool();

    CliRun r = run(tool, "spark-cluster", "start", "--workers", "3", "--memory", "1g", "--dir",
        "d");

    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).isEqualTo("spark://127.0.0.1:7077" + System.lineSeparator());
    assertThat(tool.calls).containsExactly(List.of("start", "--workers", "3", "--cores", "1",
        "--memory", "1g", "--dir", "d"));
  }

  @Test
  void stop_withoutDir_leavesTheDefaultToTheTool() {
    RecordingTool tool = new RecordingTool();

    CliRun r = run(tool, "spark-cluster", "stop");

    assertThat(r.exitCode()).isZero();
    assertThat(tool.calls).containsExactly(List.of("stop"));
  }

  @Test
  void start_zeroWorkers_exitsTwoWithoutCallingTheTool() {
    RecordingTool tool = new RecordingTool();

    CliRun r = run(tool, "spark-cluster", "start", "--workers", "0");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--workers must be a whole number >= 1, got 0");
    assertThat(tool.calls).isEmpty();
  }

  @Test
  void start_withoutTributarySpark_saysSoAndExitsOne() {
    CliRun r = run(null, "spark-cluster", "start");

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).startsWith("tributary spark-cluster: needs tributary-spark on the class"
        + " path");
  }

  @Test
  void noAction_exitsTwoNamingStartAndStop() {
    CliRun r = run(new RecordingTool(), "spark-cluster");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("choose start or stop");
  }

  @Test
  void mainCommandLine_onTheCliClassPath_findsNoTool() {
    // tributary-cli does not depend on tributary-spark, so its tests run without the tool.
    CliRun r = CliRun.of("spark-cluster", "stop", "--dir", "unused");

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).contains("needs tributary-spark on the class path");
  }
}
