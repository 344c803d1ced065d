package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The hot worker team that split products run on: every part once, failures, nesting, wake-up. */
class WorkerTeamTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 5, 9})
  void tryRun_anyPartCount_runsEveryPartOnce(int parts) {
    WorkerTeam team = new WorkerTeam();
    for (int round = 0; round < 200; round++) {
      AtomicIntegerArray runs = new AtomicIntegerArray(parts);
      assertThat(team.tryRun(parts, runs::incrementAndGet)).isTrue();
      for (int i = 0; i < parts; i++) {
        assertThat(runs.get(i)).as("part %d of round %d", i, round).isEqualTo(1);
      }
    }
  }

  @Test
  void tryRun_partThrows_rethrowsAfterEveryPartFinished() {
    WorkerTeam team = new WorkerTeam();
    AtomicIntegerArray runs = new AtomicIntegerArray(4);
    assertThatThrownBy(() -> team.tryRun(4, i -> {
      runs.incrementAndGet(i);
      if (i == 2) {
        throw new IllegalStateException("part 2 failed");
      }
    })).isInstanceOf(IllegalStateException.class).hasMessage("part 2 failed");
    for (int i = 0; i < 4; i++) {
      assertThat(runs.get(i)).isEqualTo(1);
    }
    // The team is free again after a failure.
    assertThat(team.tryRun(2, i -> { })).isTrue();
  }

  @Test
  void tryRun_fromInsideAPart_returnsFalseWithoutRunning() {
    WorkerTeam team = new WorkerTeam();
    AtomicBoolean nestedRan = new AtomicBoolean();
    AtomicBoolean nestedAccepted = new AtomicBoolean(true);
    assertThat(team.tryRun(2, i -> {
      if (i == 0) {
        nestedAccepted.set(team.tryRun(2, j -> nestedRan.set(true)));
      }
    })).isTrue();
    assertThat(nestedAccepted).isFalse();
    assertThat(nestedRan).isFalse();
  }

  @Test
  void tryRun_afterWorkersParked_partsRunOnTwoThreadsAtOnce() throws InterruptedException {
    WorkerTeam team = new WorkerTeam();
    assertThat(team.tryRun(2, i -> { })).isTrue();
    for (int round = 0; round < 3; round++) {
      // Past the spin: the worker has parked and must be woken.
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(WorkerTeam.SPIN_NANOS) + 20);
      CountDownLatch both = new CountDownLatch(2);
      AtomicBoolean met = new AtomicBoolean(true);
      assertThat(team.tryRun(2, i -> {
        both.countDown();
        try {
          // Each part waits for the other: only two threads running at once get past this.
          if (!both.await(20, TimeUnit.SECONDS)) {
            met.set(false);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          met.set(false);
        }
      })).isTrue();
      assertThat(met).as("round %d", round).isTrue();
    }
  }
}
