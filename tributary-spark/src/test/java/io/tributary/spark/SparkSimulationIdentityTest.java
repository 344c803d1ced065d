package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.simulation.Engine;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationResult;
import io.tributary.simulation.SimulationSettings;
import io.tributary.tensor.Tensor;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The promise: a simulation on Spark gives the local run's bits, whatever the partitions.
 */
class SparkSimulationIdentityTest {
  private static SimulationSettings settings(Engine engine) {
    return SimulationSettings.builder().model(ModelKind.MLP).clients(10).clientsPerRound(6)
        .rounds(3).localEpochs(1).threads(2).seed(5).engine(engine).build();
  }

  @Test
  void localSpark_givesTheLocalRunsBits() throws Exception {
    SimulationResult local = Simulation.builder(settings(Engine.LOCAL)).build().run();
    SimulationResult spark = Simulation.builder(settings(
        new Engine.Cluster("local[2]", Map.of(), 3))).build().run();
    assertThat(spark.history().rounds()).hasSameSizeAs(local.history().rounds());
    for (int i = 0; i < local.history().rounds().size(); i++) {
      var a = local.history().rounds().get(i);
      var b = spark.history().rounds().get(i);
      assertThat(b.testLoss()).isEqualTo(a.testLoss());
      assertThat(b.testAccuracy()).isEqualTo(a.testAccuracy());
      assertThat(b.trainLoss()).isEqualTo(a.trainLoss());
    }
    for (var e : local.finalParameters().entrySet()) {
      Tensor x = e.getValue();
      Tensor y = spark.finalParameters().get(e.getKey());
      byte[] bx = new byte[(int) x.byteSize()];
      byte[] by = new byte[(int) y.byteSize()];
      x.copyBytes(0, bx, 0, bx.length);
      y.copyBytes(0, by, 0, by.length);
      assertThat(by).as(e.getKey()).isEqualTo(bx);
    }
  }
}
