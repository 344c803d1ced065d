package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.data.Dataset;
import io.tributary.data.Partitioner;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.simulation.DatasetSpec;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SimulationSettings;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClientDataTest {
  private static final int CLIENTS = 5;
  private static final long SEED = 7;

  @org.junit.jupiter.api.Test
  void load_csvFile_holdsSimulatesClientOfThatIndex(@org.junit.jupiter.api.io.TempDir Path dir)
      throws IOException {
    StringBuilder rows = new StringBuilder("who,a,b,y\n");
    for (int i = 0; i < 60; i++) {
      rows.append("c").append(i % 3).append(',').append(i).append(',').append(-i).append(',')
          .append(i % 2).append('\n');
    }
    Path file = java.nio.file.Files.writeString(dir.resolve("d.csv"), rows);
    DatasetSpec spec = new DatasetSpec.Csv(file).withColumns("who", "y", java.util.List.of());
    SimulationSettings config = SimulationSettings.builder().dataset(spec).clientsPerRound(2)
        .seed(SEED).build();
    Dataset expected = SimulationData.load(config).clientTrain().get(2);

    ClientData client = ClientData.load(spec, null, 2, 3, new Partitioner.Iid(), ModelKind.MCLR,
        SEED);

    assertThat(client.train().features()).isEqualTo(expected.features());
    assertThat(client.test().size()).isEqualTo(SimulationData.load(config).test().size());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ClientData.load(spec, null, 3, 4,
        new Partitioner.Iid(), ModelKind.MCLR, SEED))
        .hasMessage("d.csv has 3 clients, so there is no client 3");
  }

  @ParameterizedTest
  @ValueSource(strings = {"iid", "dirichlet:0.3", "shards:2"})
  void load_pooledDataWithASplit_holdsSimulatesClientData(String split) throws IOException {
    SimulationSettings config = new SimulationSettings(FederatedAlgorithm.fedAvg(), DatasetSpec.parse("digits"),
        null, split, ModelKind.MLP, CLIENTS, 2, 1, 1, 16, 0.1, 0, SEED, 1, 1,
        Path.of("unused"));
    SimulationData simulated = SimulationData.load(config);

    for (int i = 0; i < CLIENTS; i++) {
      ClientData client = ClientData.load(DatasetSpec.parse("digits"), null, i, CLIENTS,
          Partitioner.parse(split), ModelKind.MLP, SEED);

      Dataset expected = simulated.clientTrain().get(i);
      assertThat(client.train().size()).as("client %d of %s", i, split).isEqualTo(expected.size());
      assertThat(client.train().features()).isEqualTo(expected.features());
      assertThat(client.train().labels()).isEqualTo(expected.labels());
    }
  }

  @org.junit.jupiter.api.Test
  void load_generatedPopulation_holdsSimulatesClientOfThatIndex() throws IOException {
    SimulationSettings config = SimulationSettings.builder()
        .dataset(DatasetSpec.parse("generated:20,3,4")).clients(1_000_000)
        .clientsPerRound(2).seed(SEED).build();
    Dataset expected = SimulationData.load(config).clientTrain().get(765_432);

    ClientData client = ClientData.load(config.dataset(), null, 765_432, 1_000_000,
        new Partitioner.Iid(), ModelKind.MCLR, SEED);

    assertThat(client.train().features()).isEqualTo(expected.features());
    assertThat(client.train().labels()).isEqualTo(expected.labels());
    assertThat(client.test().size()).isEqualTo(10_000);
  }

  @ParameterizedTest
  @ValueSource(strings = {"dirichlet:0.1", "shards:1"})
  void load_skewedSplits_giveClientsDifferentLabelMixes(String split) throws IOException {
    long[] first = ClientData.load(DatasetSpec.parse("digits"), null, 0, CLIENTS,
        Partitioner.parse(split), ModelKind.MLP, SEED).train().labelCounts();
    long[] iid = ClientData.load(DatasetSpec.parse("digits"), null, 0, CLIENTS,
        Partitioner.parse("iid"), ModelKind.MLP, SEED).train().labelCounts();

    long emptyClasses = java.util.Arrays.stream(first).filter(c -> c == 0).count();
    assertThat(java.util.Arrays.stream(iid).filter(c -> c == 0).count()).isZero();
    assertThat(emptyClasses).as("classes missing from a %s client", split).isPositive();
  }
}
