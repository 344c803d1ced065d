package io.tributary.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generated populations at their documented maximum start fast (no client is made to write
 * {@code clients.json}), and a model too large for the heap is refused before it is allocated.
 */
class GeneratedScaleTest {
  @TempDir Path dir;

  @Test
  @Timeout(120)
  void run_tenMillionGeneratedClients_startsWithClientsJsonWithoutMakingThem() throws Exception {
    Path out = dir.resolve("run");
    SimulationSettings s = SimulationSettings.builder().dataset(DatasetSpec.parse("generated"))
        .model(ModelKind.MCLR).clients(SimulationSettings.MAX_GENERATED_CLIENTS)
        .clientsPerRound(2).rounds(1).seed(1).threads(1).out(out).build();
    // Stops the run once it has started: a round evaluates every client (the run's own cost);
    // what is checked is that the start, clients.json included, makes none.
    SimulationListener stop = new SimulationListener() {
      @Override
      public void started(SimulationStart start) throws java.io.IOException {
        throw new java.io.IOException("started");
      }
    };
    long t0 = System.nanoTime();

    assertThatThrownBy(() -> Simulation.builder(s).writeFiles().listener(stop).build().run())
        .hasMessage("started");

    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(60);
    String json = Files.readString(out.resolve(RunFiles.CLIENTS));
    assertThat(json).startsWith("{\"train_sizes\": [10, 10, ").endsWith("], \"test_size\": "
        + "10000}\n");
    assertThat(json.length()).isGreaterThan(4 * SimulationSettings.MAX_GENERATED_CLIENTS - 10);
  }

  @Test
  void build_modelOfABillionParameters_refusedInOneLineBeforeAllocating() {
    assertThatThrownBy(() -> ModelKind.MCLR.build("generated:67108864,15,1",
        new long[] {67_108_864}, 15))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("generated:67108864,15,1: a model of 1,006,632,975 parameters "
            + "needs about 15.0 GiB of heap")
        .hasMessageNotContaining("\n");
  }

  @Test
  void requireHeap_modelWithinTheHeap_passes() {
    ModelKind.requireHeap("digits", 650, 1L << 30);
    assertThatThrownBy(() -> ModelKind.requireHeap("digits", 100_000_000, 1L << 30))
        .hasMessageContaining("this JVM has 1.0 GiB");
  }
}
