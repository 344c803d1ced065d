package io.tributary.learning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ClientSamplerTest {
  @Property(tries = 300)
  void sample_anySize_distinctSortedInRangeAndRepeatable(@ForAll long seed,
      @ForAll @IntRange(min = 0, max = 1000) int round,
      @ForAll @IntRange(min = 0, max = 200) int population,
      @ForAll @IntRange(min = 0, max = 200) int want) {
    int count = Math.min(want, population);
    int[] s = new ClientSampler(seed).sample(round, population, count);
    assertThat(s).hasSize(count);
    assertThat(Arrays.stream(s).distinct().count()).isEqualTo(count);
    assertThat(s).isSorted();
    assertThat(Arrays.stream(s).allMatch(i -> i >= 0 && i < population)).isTrue();
    assertThat(new ClientSampler(seed).sample(round, population, count)).isEqualTo(s);
  }

  @Test
  void sample_differentRoundsOrSeeds_differ() {
    ClientSampler a = new ClientSampler(1);
    assertThat(a.sample(0, 1000, 10)).isNotEqualTo(a.sample(1, 1000, 10));
    assertThat(a.sample(0, 1000, 10)).isNotEqualTo(new ClientSampler(2).sample(0, 1000, 10));
  }

  @Test
  void sample_manyRounds_everyClientAboutEquallyOften() {
    ClientSampler s = new ClientSampler(5);
    int[] hits = new int[30];
    for (int r = 0; r < 3000; r++) {
      for (int c : s.sample(r, 30, 10)) {
        hits[c]++;
      }
    }
    // Expected 1000 each; a binomial sd is about 26.
    assertThat(Arrays.stream(hits).min().getAsInt()).isGreaterThan(880);
    assertThat(Arrays.stream(hits).max().getAsInt()).isLessThan(1120);
  }

  @Test
  void sample_badArguments_throw() {
    ClientSampler s = new ClientSampler(0);
    assertThatThrownBy(() -> s.sample(-1, 10, 1)).hasMessageContaining("round must be >= 0");
    assertThatThrownBy(() -> s.sample(0, 10, 11))
        .hasMessageContaining("cannot sample 11 clients from a population of 10");
    assertThatThrownBy(() -> s.sample(0, 10, -1)).hasMessageContaining("cannot sample -1");
  }
}
