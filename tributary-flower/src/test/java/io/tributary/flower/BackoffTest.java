package io.tributary.flower;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackoffTest {
  private static final Backoff B = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), 2,
      0.25, 10, 42);

  private static List<Duration> delays(Backoff b, int n) {
    SplittableRandom r = b.newRandom();
    List<Duration> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(b.delay(i, r));
    }
    return out;
  }

  @Test
  void delay_growingAttempts_doublesWithinJitterUpToTheCap() {
    List<Duration> d = delays(B, 8);
    for (int i = 0; i < d.size(); i++) {
      double base = Math.min(1000, 100 * Math.pow(2, i));
      assertThat(d.get(i).toNanos() / 1e6).isBetween(base * 0.75 - 1e-6,
          Math.min(1000, base * 1.25) + 1e-6);
    }
    assertThat(d.getLast()).isLessThanOrEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void delay_sameSeed_sameDelays() {
    assertThat(delays(B, 6)).isEqualTo(delays(B, 6));
    assertThat(delays(B, 6)).isNotEqualTo(delays(B.withSeed(43), 6));
  }

  @Test
  void constructor_badValues_areRefused() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), 2, 0, 1, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initial");
    assertThatThrownBy(() -> B.withDelays(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessageContaining("max delay");
    assertThatThrownBy(() -> new Backoff(Duration.ofMillis(1), Duration.ofSeconds(1), 0.5, 0, 1,
        0)).hasMessageContaining("multiplier");
    assertThatThrownBy(() -> new Backoff(Duration.ofMillis(1), Duration.ofSeconds(1), 2, 1, 1, 0))
        .hasMessageContaining("jitter");
    assertThatThrownBy(() -> B.withMaxAttempts(0)).hasMessageContaining("max attempts");
  }
}
