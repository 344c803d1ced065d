package io.tributary.cli;

import io.tributary.learning.AlgorithmRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.FederatedAlgorithm;
import io.tributary.simulation.DatasetSpec;
import io.tributary.simulation.ModelKind;
import io.tributary.learning.SettingException;
import io.tributary.simulation.SimulationSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** Parsing and validation of {@code simulate}'s options, before anything runs. */
class SimulateOptionsTest {
  @TempDir Path dir;

  static SimulationSettings parse(String... args) {
    SimulateCommand cmd = new SimulateCommand();
    new CommandLine(cmd).parseArgs(args);
    return cmd.settings();
  }

  @Test
  void config_noOptions_fedAvgOnDigitsWithMlpAndDocumentedDefaults() {
    SimulationSettings c = parse("--out", "x");

    assertThat(c.algorithm()).isEqualTo(FederatedAlgorithm.fedAvg());
    assertThat(c.dataset()).isEqualTo(new DatasetSpec.Digits());
    assertThat(c.model()).isEqualTo(ModelKind.MLP);
    assertThat(c.partition()).isEqualTo("iid");
    assertThat(c.clients()).isEqualTo(SimulateCommand.DEFAULT_CLIENTS);
    assertThat(c.clientsPerRound()).isEqualTo(SimulateCommand.DEFAULT_CLIENTS_PER_ROUND);
    assertThat(c.rounds()).isEqualTo(SimulateCommand.DEFAULT_ROUNDS);
    assertThat(c.mu()).isZero();
    assertThat(c.threads()).isEqualTo(Runtime.getRuntime().availableProcessors());
  }

  @Test
  void config_noOut_defaultsToATimestampUnderRuns() {
    SimulationSettings c = parse();

    assertThat(c.out().getParent()).isEqualTo(Path.of("runs"));
    assertThat(c.out().getFileName().toString()).matches("\\d{8}-\\d{6}(-\\d+)?");
  }

  static Stream<Arguments> good() {
    return Stream.of(
        Arguments.of("fedprox paper protocol",
            new String[] {"--algorithm", "fedprox", "--dataset", "synthetic:1,1", "--clients",
                "30", "--clients-per-round", "10", "--local-epochs", "20", "--batch-size", "10",
                "--lr", "0.01", "--mu", "1", "--rounds", "200"},
            // The settings' algorithm is the one the run trains: FedProx at the run's mu.
            Map.of("algorithm", FederatedAlgorithm.named("fedprox", Map.of("proximal_mu", 1.0)),
                "dataset", "synthetic:1,1", "model", ModelKind.MCLR, "partition", "natural",
                "mu", 1.0, "clientsPerRound", 10)),
        Arguments.of("fedprox default mu", new String[] {"--algorithm", "FedProx"},
            Map.of("mu", SimulateCommand.DEFAULT_MU)),
        Arguments.of("synthetic fractional", new String[] {"--dataset", "synthetic:0.5,0"},
            Map.of("dataset", "synthetic:0.5,0", "model", ModelKind.MCLR)),
        Arguments.of("synthetic-iid", new String[] {"--dataset", "synthetic-iid"},
            Map.of("dataset", "synthetic-iid", "partition", "natural")),
        Arguments.of("dirichlet", new String[] {"--partition", "dirichlet:0.3"},
            Map.of("partition", "dirichlet:0.3")),
        Arguments.of("shards", new String[] {"--partition", "shards:2", "--model", "mclr"},
            Map.of("partition", "shards:2", "model", ModelKind.MCLR)),
        Arguments.of("few clients clamp K", new String[] {"--clients", "3"},
            Map.of("clients", 3, "clientsPerRound", 3)),
        Arguments.of("fashion with dir", new String[] {"--dataset", "fashion-mnist", "--data-dir",
            "/data/fm", "--model", "cnn"},
            Map.of("dataset", "fashion-mnist", "model", ModelKind.CNN, "partition", "iid")),
        Arguments.of("threads and seed", new String[] {"--threads", "1", "--seed", "-5"},
            Map.of("threads", 1, "seed", -5L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("good")
  void config_validOptions_resolveAsExpected(String label, String[] args,
      Map<String, Object> expected) {
    SimulationSettings c = parse(args);

    for (Map.Entry<String, Object> e : expected.entrySet()) {
      Object actual = switch (e.getKey()) {
        case "algorithm" -> c.algorithm();
        case "dataset" -> c.dataset().toString();
        case "model" -> c.model();
        case "partition" -> c.partition();
        case "mu" -> c.mu();
        case "clients" -> c.clients();
        case "clientsPerRound" -> c.clientsPerRound();
        case "threads" -> c.threads();
        case "seed" -> c.seed();
        default -> throw new IllegalArgumentException(e.getKey());
      };
      assertThat(actual).as(e.getKey()).isEqualTo(e.getValue());
    }
  }

  static Stream<Arguments> bad() {
    return Stream.of(
        Arguments.of(new String[] {"--algorithm", "fedsgd"}, "unknown algorithm 'fedsgd'"),
        Arguments.of(new String[] {"--algorithm", "hierfavg", "--edge-rounds", "0"},
            "--edge-rounds must be a whole number in [1, 1000], got 0.0"),
        Arguments.of(new String[] {"--algorithm", "hierfavg", "--edges", "0"},
            "--edges must be a whole number in [1, 1048576], got 0.0"),
        Arguments.of(new String[] {"--edges", "3"},
            "--edges does not apply to --algorithm fedavg"),
        Arguments.of(new String[] {"--algorithm", "hierfavg", "--edges", "4",
            "--clients-per-round", "3"}, "--clients-per-round must be at least --edges (4)"),
        Arguments.of(new String[] {"--algorithm", "hierfavg", "--dp-at", "cloud"},
            "--dp-at must be server or edges, got 'cloud'"),
        Arguments.of(new String[] {"--dp-at", "edges"},
            "--dp-at applies only to --dp with --algorithm hierfavg"),
        Arguments.of(new String[] {"--dataset", "mnist"}, "unknown dataset 'mnist'"),
        Arguments.of(new String[] {"--dataset", "synthetic:1"}, "synthetic:ALPHA,BETA"),
        Arguments.of(new String[] {"--dataset", "synthetic:a,1"}, "'a' is not a number"),
        Arguments.of(new String[] {"--dataset", "synthetic:-1,1"}, "ALPHA must be finite"),
        Arguments.of(new String[] {"--dataset", "synthetic:1,1", "--partition", "iid"},
            "--partition does not apply"),
        Arguments.of(new String[] {"--partition", "dirichlet:-1"}, "dirichlet"),
        Arguments.of(new String[] {"--partition", "stripes"}, "unknown partitioner"),
        Arguments.of(new String[] {"--model", "resnet"}, "unknown model 'resnet'"),
        Arguments.of(new String[] {"--clients", "0"}, "--clients must be in [1, 100000]"),
        Arguments.of(new String[] {"--clients", "5", "--clients-per-round", "6"},
            "--clients-per-round must be in [1, 5]"),
        Arguments.of(new String[] {"--rounds", "0"}, "--rounds"),
        Arguments.of(new String[] {"--local-epochs", "0"}, "--local-epochs"),
        Arguments.of(new String[] {"--batch-size", "-1"}, "--batch-size"),
        Arguments.of(new String[] {"--lr", "0"}, "--lr must be positive"),
        Arguments.of(new String[] {"--lr", "NaN"}, "--lr must be positive"),
        Arguments.of(new String[] {"--algorithm", "fedprox", "--mu", "-0.5"}, "--mu must be"),
        Arguments.of(new String[] {"--mu", "1"}, "--mu applies only to --algorithm fedprox"),
        Arguments.of(new String[] {"--threads", "0"}, "--threads"),
        Arguments.of(new String[] {"--data-dir", "/tmp"}, "--data-dir applies only"),
        Arguments.of(new String[] {"--algorithm", "fedadam", "--trim-beta", "0.1"},
            "--trim-beta does not apply to --algorithm fedadam; it takes --server-lr, --beta1, "
                + "--beta2, --tau"),
        Arguments.of(new String[] {"--server-momentum", "0.9"},
            "--server-momentum does not apply to --algorithm fedavg, which takes no options"),
        Arguments.of(new String[] {"--algorithm", "fedyogi", "--beta2", "1"},
            "fedyogi: --beta2 must be in [0, 1), got 1.0"),
        Arguments.of(new String[] {"--algorithm", "fedtrimmedavg", "--trim-beta", "0.5"},
            "beta must be in [0, 0.5)"),
        Arguments.of(new String[] {"--algorithm", "krum", "--krum-f", "-1"},
            "krum: --krum-f must be a whole number >= 0"),
        Arguments.of(new String[] {"--client-metric", "f1=max"},
            "--client-metric: the clients report accuracy and loss, not 'f1'"),
        Arguments.of(new String[] {"--client-metric", "accuracy=median"},
            "--client-metric must be NAME=HOW"),
        Arguments.of(new String[] {"--algorithm", "fedadam", "--mu", "1"},
            "--mu applies only to --algorithm fedprox (fedadam has no proximal term)"),
        Arguments.of(new String[] {"--byzantine", "3:bogus"},
            "--byzantine: unknown mode 'bogus' (scale:S, signflip or noise:SIGMA)"),
        Arguments.of(new String[] {"--byzantine", "-1:signflip"},
            "--byzantine: K must be >= 0, got -1"),
        Arguments.of(new String[] {"--clients-per-round", "4", "--byzantine", "5:signflip"},
            "--byzantine: K must be at most --clients-per-round (4), got 5"),
        Arguments.of(new String[] {"--byzantine", "2:scale"},
            "--byzantine must be K:scale:S, K:signflip or K:noise:SIGMA, got '2:scale'"));
  }

  @Test
  void config_suiteAlgorithmWithOptions_resolvesFlowerNamesOverDefaults() {
    SimulationSettings c = parse("--algorithm", "fedadam", "--server-lr", "0.05", "--beta1",
        "0.8", "--out", "x");

    assertThat(c.algorithm().registration().orElseThrow().hyperparameters())
        .containsExactly(Map.entry("eta", 0.05), Map.entry("beta_1", 0.8),
            Map.entry("beta_2", 0.99), Map.entry("tau", 1e-9));
    assertThat(c.commandLine()).containsSequence("--server-lr", "0.05", "--beta1", "0.8",
        "--beta2", "0.99", "--tau", "1.0e-9");
    assertThat(parse("--algorithm", "fedavgm", "--server-lr", "0.5", "--out", "x").algorithm()
        .registration().orElseThrow().hyperparameters()).containsEntry("server_learning_rate", 0.5);
    assertThat(parse("--algorithm", "qfedavg", "--q", "1", "--qffl-lr", "0.05", "--out", "x")
        .algorithm().registration().orElseThrow().hyperparameters())
        .containsExactly(Map.entry("q_param", 1.0), Map.entry("qffl_learning_rate", 0.05));
  }

  @Test
  void config_byzantine_parsedIntoTheSettingsAndRepeatedByTheCommand() {
    SimulationSettings c = parse("--clients", "20", "--clients-per-round", "10", "--byzantine",
        "2:scale:-10", "--out", "x");

    assertThat(c.byzantine()).isEqualTo(io.tributary.simulation.Byzantine.parse("2:scale:-10"));
    assertThat(c.commandLine()).containsSequence("--byzantine", "2:scale:-10");
    assertThat(parse(c.commandLine().subList(2, c.commandLine().size())
        .toArray(String[]::new))).isEqualTo(c);
  }

  @Test
  void config_clientMetric_recordedAndRepeated() {
    SimulationSettings c = parse("--client-metric", "accuracy=max", "--client-metric",
        "loss=mean", "--out", "x");

    assertThat(c.clientMetrics()).containsExactly(
        Map.entry("accuracy", io.tributary.learning.MetricAggregation.MAX),
        Map.entry("loss", io.tributary.learning.MetricAggregation.MEAN));
    assertThat(c.toJson()).contains("\"client_metrics\": {\"accuracy\": \"max\", "
        + "\"loss\": \"mean\"}");
    java.util.List<String> words = c.commandLine();
    assertThat(parse(words.subList(2, words.size()).toArray(String[]::new))).isEqualTo(c);
    assertThat(parse("--out", "x").toJson()).doesNotContain("client_metrics");
  }

  @Test
  void help_listsEveryAlgorithmOfTheSuite() {
    String help = Main.commandLine(new String[] {"simulate"}).getSubcommands().get("simulate")
        .getUsageMessage();
    for (String name : io.tributary.learning.AlgorithmRegistry.installed().descriptions().keySet()) {
      assertThat(help).containsPattern("(?m)^  " + name + " +\\S");
    }
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("bad")
  void config_badValue_throwsNamingTheProblem(String[] args, String message) {
    assertThatThrownBy(() -> parse(args)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  static Stream<Arguments> badOnTheCommandLine() {
    return Stream.concat(bad().map(a -> Arguments.of(a.get()[0], a.get()[1])), Stream.of(
        Arguments.of(new String[] {"--clients", "many"}, "'many' is not an int"),
        Arguments.of(new String[] {"--lr"}, "--lr"),
        Arguments.of(new String[] {"--no-such-flag"}, "--no-such-flag")));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badOnTheCommandLine")
  void simulate_badValue_printsOneLineAndExitsTwo(String[] args, String message) {
    String[] full = new String[args.length + 3];
    full[0] = "simulate";
    System.arraycopy(args, 0, full, 1, args.length);
    full[args.length + 1] = "--out";
    full[args.length + 2] = dir.resolve("never").toString();

    CliRun run = CliRun.of(full);

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.errLines()[0]).startsWith("tributary simulate: ").contains(message);
    assertThat(dir.resolve("never")).doesNotExist();
  }

  @Test
  void config_cnnOnDigits_isRejectedWhenTheModelIsBuilt() {
    SimulationSettings c = parse("--model", "cnn");

    assertThatThrownBy(() -> c.model().build("digits", new long[] {64}, 10))
        .isInstanceOfSatisfying(SettingException.class, e -> assertThat(
            SimulateFlags.render(e)).contains("cnn takes 28x28").contains("--model mlp"))
        .hasMessageContaining("use model mclr or model mlp");
  }

  @Test
  void commandLine_config_reparsesToTheSameSettings() {
    SimulationSettings c = parse("--algorithm", "fedprox", "--dataset", "synthetic:0.5,1", "--mu",
        "0.25", "--out", "runs/a b's", "--seed", "9");
    java.util.List<String> words = c.commandLine();

    SimulationSettings again = parse(words.subList(2, words.size()).toArray(String[]::new));

    assertThat(again).isEqualTo(c);
    SimulationSettings krum = parse("--algorithm", "multikrum", "--krum-f", "2", "--krum-m", "3",
        "--out", "x");
    java.util.List<String> kw = krum.commandLine();
    assertThat(parse(kw.subList(2, kw.size()).toArray(String[]::new))).isEqualTo(krum);
    assertThat(c.shellCommand()).contains("--out 'runs/a b'\\''s'");
  }

  @Test
  void help_everyOption_hasADescription() {
    CommandLine cli = new CommandLine(new SimulateCommand());
    for (CommandLine.Model.OptionSpec o : cli.getCommandSpec().options()) {
      assertThat(o.description()).as(o.longestName()).isNotEmpty();
      assertThat(String.join(" ", o.description())).as(o.longestName()).isNotBlank();
    }
    String help = cli.getUsageMessage();
    for (String flag : new String[] {"--algorithm", "--dataset", "--data-dir", "--partition",
        "--model", "--clients", "--clients-per-round", "--rounds", "--local-epochs",
        "--batch-size", "--lr", "--mu", "--seed", "--threads", "--out"}) {
      assertThat(help).contains(flag);
    }
  }

  @Test
  void config_clientOptimizerAdam_recordedInCommandLineAndConfigAndReparses() {
    SimulationSettings c = parse("--client-optimizer", "adam", "--client-beta1", "0.8",
        "--lr", "0.01", "--out", "x");

    assertThat(c.clientOptimizer().name()).isEqualTo("adam");
    assertThat(c.clientOptimizer().hyperparameters()).containsExactly(Map.entry("beta1", 0.8),
        Map.entry("beta2", 0.999), Map.entry("epsilon", 1e-7));
    assertThat(c.commandLine()).containsSequence("--client-optimizer", "adam", "--client-beta1",
        "0.8", "--client-beta2", "0.999", "--client-epsilon", "1.0e-7");
    assertThat(c.toJson()).contains("\"client_optimizer\": \"adam\"")
        .contains("\"client_optimizer_options\": {\"beta1\": 0.8");
    java.util.List<String> words = c.commandLine();
    assertThat(parse(words.subList(2, words.size()).toArray(String[]::new))).isEqualTo(c);
  }

  @Test
  void config_noClientOptimizer_sgdAndNothingRecorded() {
    SimulationSettings c = parse("--out", "x");
    SimulationSettings explicit = parse("--client-optimizer", "sgd", "--out", "x");

    assertThat(c.clientOptimizer().isSgd()).isTrue();
    assertThat(explicit).isEqualTo(c);
    assertThat(c.commandLine()).doesNotContain("--client-optimizer");
    assertThat(c.toJson()).doesNotContain("client_optimizer");
  }

  @Test
  void config_badClientOptimizerSettings_refusedNamingTheFlag() {
    assertThatThrownBy(() -> parse("--client-optimizer", "rmsprop", "--out", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--client-optimizer").hasMessageContaining("rmsprop");
    assertThatThrownBy(() -> parse("--client-optimizer", "yogi", "--client-beta2", "1",
        "--out", "x")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--client-beta2 must be in [0, 1), got 1.0");
    assertThatThrownBy(() -> parse("--client-optimizer", "adagrad", "--client-momentum", "0.5",
        "--out", "x")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--client-momentum does not apply to --client-optimizer adagrad");
    assertThatThrownBy(() -> parse("--client-beta1", "0.5", "--out", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--client-beta1 does not apply to --client-optimizer sgd");
  }
}
