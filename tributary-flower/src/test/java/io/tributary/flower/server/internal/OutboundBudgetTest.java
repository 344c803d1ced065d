package io.tributary.flower.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OutboundBudgetTest {
  @Test
  void acquire_smallMessage_takesNothing() throws Exception {
    OutboundBudget b = new OutboundBudget(1 << 20);
    assertThat(b.acquire(OutboundBudget.SMALL)).isZero();
    assertThat(b.available()).isEqualTo(1 << 20);
  }

  @Test
  void acquire_largerThanTheBudget_takesAllOfItAndBlocksOthersUntilReleased() throws Exception {
    OutboundBudget b = new OutboundBudget(1 << 20);
    int held = b.acquire(5 << 20);
    assertThat(held).isEqualTo(1 << 20);
    CompletableFuture<Integer> next = CompletableFuture.supplyAsync(() -> {
      try {
        return b.acquire(100_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(50);
    assertThat(next).isNotDone();
    b.release(held);
    assertThat(next.get(5, TimeUnit.SECONDS)).isEqualTo(100_000);
    assertThat(b.available()).isEqualTo((1 << 20) - 100_000);
  }

  @Test
  void new_budgetBelowSmall_isRefused() {
    assertThatThrownBy(() -> new OutboundBudget(1000))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1000");
  }
}
