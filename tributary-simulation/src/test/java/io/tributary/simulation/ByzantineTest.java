package io.tributary.simulation;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.SettingException;
import io.tributary.learning.rounds.RoundRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code --byzantine} setting: parsing, the seeded choice of clients, and its effect. */
class ByzantineTest {
  @TempDir Path dir;

  private static SimulationSettings.Builder attacked() {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(6).clientsPerRound(4)
        .rounds(4).localEpochs(1).seed(3).threads(2).checkpointEvery(2)
        .byzantine(Byzantine.parse("1:noise:0.5"));
  }

  @Test
  void resume_byzantineRunStoppedAfterRound3_endsBitIdenticalToAnUninterruptedRun()
      throws Exception {
    Path whole = dir.resolve("whole");
    SimulationResult uninterrupted = Simulation.builder(attacked().out(whole).build())
        .writeFiles().build().run();
    Path run = dir.resolve("run");
    SimulationListener stopAfter3 = SimulationTest.stopAfter(3);
    assertThatThrownBy(() -> Simulation.builder(attacked().out(run).build()).writeFiles()
        .listener(stopAfter3).build().run()).hasMessage("stopped on purpose");

    SimulationResult resumed = Simulation.builder(attacked().out(run).build()).writeFiles()
        .resume().build().run();

    assertThat(resumed.resumedAfter()).isEqualTo(2);
    assertThat(Files.readAllBytes(run.resolve(RunFiles.FINAL)))
        .isEqualTo(Files.readAllBytes(whole.resolve(RunFiles.FINAL)));
    assertThat(resumed.history().series(RoundRecord::trainLoss))
        .isEqualTo(uninterrupted.history().series(RoundRecord::trainLoss));
  }

  @Test
  void resume_withoutTheRunsByzantineSetting_isRefusedNamingTheKey() throws Exception {
    Path run = dir.resolve("run");
    Simulation.builder(attacked().out(run).build()).writeFiles().build().run();

    assertThatThrownBy(() -> Simulation.builder(attacked().byzantine(Byzantine.NONE).out(run)
        .build()).writeFiles().resume().build().run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("resume: byzantine (not set) differs from the run in " + run
            + ", which has byzantine \"1:");
  }
  @Test
  void parse_threeModes_readAndPrintBack() {
    assertThat(Byzantine.parse("2:scale:-10")).isEqualTo(new Byzantine(2,
        new Byzantine.Mode.Scale(-10)));
    assertThat(Byzantine.parse("2:scale:-10").toString()).isEqualTo("2:scale:-10");
    assertThat(Byzantine.parse("1:scale:0.5").toString()).isEqualTo("1:scale:0.5");
    assertThat(Byzantine.parse("3:SignFlip")).isEqualTo(new Byzantine(3,
        new Byzantine.Mode.SignFlip()));
    assertThat(Byzantine.parse("1:noise:2.5").mode().sigma()).isEqualTo(2.5);
    assertThat(Byzantine.parse("1:noise:2.5").mode().scale()).isZero();
    assertThat(Byzantine.parse("1:signflip").mode().scale()).isEqualTo(-1);
  }

  @Test
  void parse_badValues_oneLineNamingTheFlag() {
    for (String bad : new String[] {"3:bogus", "-1:signflip", "x:signflip", "2", "2:scale",
        "2:scale:abc", "2:signflip:1", "2:noise:0", "2:noise:-1", "2:scale:NaN"}) {
      assertThatThrownBy(() -> Byzantine.parse(bad)).as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("byzantine")
          .satisfies(e -> assertThat(((SettingException) e).render(n -> "--" + n))
              .startsWith("--byzantine"))
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
  }

  @Test
  void settings_moreByzantineThanClientsPerRound_isRefusedNamingBothSettings() {
    assertThatThrownBy(() -> SimulationSettings.builder().clients(10).clientsPerRound(4)
        .byzantine(Byzantine.parse("5:signflip")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("byzantine: K must be at most clientsPerRound (4), got 5");
  }

  @Test
  void settings_byzantine_inConfigAndCommandLine() {
    SimulationSettings s = SimulationSettings.builder().byzantine(Byzantine.parse("2:scale:-10"))
        .build();

    assertThat(s.commandLine()).containsSubsequence("--byzantine", "2:scale:-10");
    assertThat(s.toJson()).contains("\"byzantine\": \"2:scale:-10\"");
    assertThat(SimulationSettings.builder().build().commandLine()).doesNotContain("--byzantine");
  }

  @Test
  void positions_sameSeedAndRound_sameKPositionsVaryingWithTheRound() {
    Byzantine b = Byzantine.parse("2:signflip");
    Set<String> seen = new HashSet<>();
    for (int round = 1; round <= 20; round++) {
      int[] p = b.positions(7, round, 10);
      assertThat(p).hasSize(2).isSorted().isEqualTo(b.positions(7, round, 10));
      assertThat(p[0]).isNotEqualTo(p[1]);
      assertThat(p[0]).isNotNegative();
      assertThat(p[1]).isLessThan(10);
      seen.add(p[0] + "," + p[1]);
    }
    assertThat(seen.size()).isGreaterThan(5);
  }

  @Test
  void attacks_kPositions_attackedTheRestHonest() {
    Byzantine b = Byzantine.parse("3:scale:100");
    var attacks = b.attacks(1, 4, 8);
    int attacked = 0;
    for (var a : attacks) {
      if (a.tensor(0).getAsDouble(0) == 100) {
        attacked++;
      } else {
        assertThat(a).isEqualTo(io.tributary.learning.ByzantineUpdate.honest());
      }
    }
    assertThat(attacked).isEqualTo(3);
  }

  private static double accuracy(String algorithm, Map<String, Double> options,
      Byzantine byzantine) throws Exception {
    SimulationSettings s = SimulationSettings.builder()
        .algorithm(FederatedAlgorithm.named(algorithm, options)).clients(10).clientsPerRound(10).rounds(8)
        .localEpochs(1).seed(5).threads(2).byzantine(byzantine).build();
    return Simulation.builder(s).build().run().history().last().testAccuracy();
  }

  @Test
  void run_twoOfTenScaledByMinusTen_fedAvgBreaksWhileMedianAndKrumHold() throws Exception {
    Byzantine attack = Byzantine.parse("2:scale:-10");
    double clean = accuracy("fedavg", Map.of(), Byzantine.NONE);
    double fedAvg = accuracy("fedavg", Map.of(), attack);
    double median = accuracy("fedmedian", Map.of(), attack);
    double krum = accuracy("krum", Map.of("num_malicious_clients", 2.0), attack);

    assertThat(clean).isGreaterThan(0.8);
    assertThat(fedAvg).as("fedavg attacked, clean %s", clean).isLessThan(clean - 0.3);
    assertThat(median).as("fedmedian attacked, clean %s", clean).isGreaterThan(clean - 0.1);
    assertThat(krum).as("krum attacked, clean %s", clean).isGreaterThan(clean - 0.15);
    assertThat(median).isGreaterThan(fedAvg);
    assertThat(krum).isGreaterThan(fedAvg);
  }

  @Test
  void run_sameSettings_bitIdenticalHistory() throws Exception {
    SimulationSettings s = SimulationSettings.builder().clients(6).clientsPerRound(4).rounds(2)
        .localEpochs(1).seed(2).threads(2).byzantine(Byzantine.parse("1:noise:0.5")).build();

    var one = Simulation.builder(s).build().run().history().last();
    var two = Simulation.builder(s.withOut(null)).build().run().history().last();

    assertThat(two.trainLoss()).isEqualTo(one.trainLoss());
    assertThat(two.testAccuracy()).isEqualTo(one.testAccuracy());
  }
}
