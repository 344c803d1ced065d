package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerMemoryTest {
  private static final long MIB = 1 << 20;

  @ParameterizedTest(name = "{0} MiB: budgets {1} MiB")
  @CsvSource({"16, 2", "512, 64", "1024, 128", "2048, 256", "65536, 256"})
  void budgets_memory_anEighthAtMost256MiB(long mib, long budgetMib) {
    ServerMemory m = new ServerMemory(mib * MIB);
    assertThat(m.readAheadBytes()).isEqualTo(budgetMib * MIB);
    assertThat(m.outboundBytes()).isEqualTo(budgetMib * MIB);
  }

  @ParameterizedTest(name = "{0} MiB, {1} clients: window {2} KiB")
  @CsvSource({
    // Under 256 KiB a client: 64 KiB, fixed.
    "256, 1025, 64", "512, 2049, 64", "512, 4000, 64", "16, 100000, 64",
    // 256 KiB or more a client: gRPC's tuning (8 MiB, its largest window).
    "256, 1024, 8192", "256, 1000, 8192", "512, 1000, 8192", "2048, 1000, 8192",
    "2048, 100, 8192", "512, 1, 8192", "16, 64, 8192"})
  void flowControlWindow_memoryAndClients_fixed64KiBBelow256KiBAClientElseTuned(long mib,
      int clients, long windowKib) {
    int w = new ServerMemory(mib * MIB).flowControlWindow(clients);
    assertThat(w / 1024).isEqualTo(windowKib);
    boolean tuned = mib * MIB / clients >= ServerMemory.TUNED_MEMORY_PER_CLIENT;
    assertThat(w).isEqualTo(tuned ? ServerMemory.MAX_DEFAULT_WINDOW_BYTES
        : ServerMemory.MIN_WINDOW_BYTES);
  }

  @ParameterizedTest(name = "{0} MiB, {1} parameters, cap {2}: {3} workers")
  @CsvSource({
    // A 1M-parameter model's float64 sum is 8 MB: a quarter of 512 MiB holds 16 of them, so
    // 2w + 1 <= 16 gives 7 workers.
    "512, 1000000, 256, 7",
    "2048, 1000000, 256, 33",
    "2048, 7850, 256, 256",
    "2048, 7850, 32, 32",
    // A model larger than the quarter itself still gets one worker.
    "512, 100000000, 256, 1",
    "512, 0, 256, 256"})
  void workers_memoryAndModel_partialSumsFitAQuarter(long mib, long elements, int cap,
      int workers) {
    ServerMemory m = new ServerMemory(mib * MIB);
    assertThat(m.workers(elements, cap)).isEqualTo(workers);
    if (workers > 1 && workers < cap) {
      assertThat((2L * workers + 1) * 8 * elements).isLessThanOrEqualTo(mib * MIB / 4);
      assertThat((2L * workers + 3) * 8 * elements).isGreaterThan(mib * MIB / 4);
    }
  }

  @Test
  void new_lessThan16MiB_isRefusedNamingTheValue() {
    assertThatThrownBy(() -> new ServerMemory(1000)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("16 MiB").hasMessageContaining("1000");
  }

  @Test
  void flowControlWindowAndWorkers_nonPositiveArguments_areRefused() {
    ServerMemory m = new ServerMemory(512 * MIB);
    assertThatThrownBy(() -> m.flowControlWindow(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clients");
    assertThatThrownBy(() -> m.workers(10, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cap");
  }

  @Test
  void ofThisJvm_isTheHeapLimit() {
    assertThat(ServerMemory.ofThisJvm().maxMemory()).isEqualTo(Runtime.getRuntime().maxMemory());
  }
}
