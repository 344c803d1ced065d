package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.simulation.Algorithm;
import io.tributary.simulation.Engine;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.SimulationStoppedException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Starting Spark for a simulation: what fails before any SparkContext exists. */
class SparkEngineProviderTest {
  private static SimulationSettings on(String master) {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(4).clientsPerRound(2)
        .rounds(1).threads(1).engine(new Engine.Cluster(master, Map.of(), 0)).build();
  }

  @Test
  void runs_sparkMastersOnly() {
    SparkEngineProvider p = new SparkEngineProvider();
    assertThat(p.runs(new Engine.Cluster("local[2]", Map.of(), 0))).isTrue();
    assertThat(p.runs(new Engine.Cluster("spark://h:7077", Map.of(), 0))).isTrue();
  }

  @Test
  void anUnreachableMaster_stopsTheSimulationWithOneLine() {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> Simulation.builder(on("spark://127.0.0.1:1")).build().run())
        .isInstanceOf(SimulationStoppedException.class)
        .hasMessageStartingWith("Could not start the engine spark://127.0.0.1:1: cannot reach "
            + "the Spark master at 127.0.0.1:1")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(30);
  }

  @Test
  void aCustomAlgorithm_isRefusedOnSpark() {
    SimulationSettings withCustom = SimulationSettings.builder()
        .algorithm(Algorithm.custom(Algorithm.FEDAVG.federated(0).withName("mine")))
        .model(ModelKind.MCLR)
        .clients(4).clientsPerRound(2).rounds(1).threads(1)
        .engine(new Engine.Cluster("local[2]", Map.of(), 0)).build();
    assertThatThrownBy(() -> new SparkEngineProvider().start(
        (Engine.Cluster) withCustom.engine(), withCustom, () -> null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Algorithm.custom");
  }
}
