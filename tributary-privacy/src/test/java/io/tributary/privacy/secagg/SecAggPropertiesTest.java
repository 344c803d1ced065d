package io.tributary.privacy.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Random rounds with random dropouts: the sum is exact over the contributors, or none at all. */
class SecAggPropertiesTest {
  @Property(tries = 25)
  void sum_randomDropouts_isExactOverTheContributorsOrFailsRevealingNothing(
      @ForAll @IntRange(min = 2, max = 14) int n,
      @ForAll @IntRange(min = 1, max = 8) int k,
      @ForAll long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int t = k / 2 + 1 + r.nextInt(k - k / 2);
    int bits = 1 + r.nextInt(40);
    SecAggSettings s = SecAggSettings.of(k, t, bits, seed)
        .withRandomness(SecAggRandomness.seededForTestsOnlyNotSecure(seed));
    List<long[]> inputs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      inputs.add(r.longs(6, 0, 1L << bits).toArray());
    }
    Dropouts drops = Dropouts.none();
    for (int c = 0; c < n; c++) {
      if (r.nextInt(5) == 0) {
        drops = drops.dropBefore(SecAggStage.values()[r.nextInt(4)], c);
      }
    }

    SecAggResult result;
    try {
      result = SecAggPlus.sum(s, inputs, drops);
    } catch (SecAggException e) {
      assertThat(e.reason()).isEqualTo(SecAggException.Reason.TOO_FEW_SURVIVORS);
      assertThat(e.transcript().orElseThrow().sum()).isEmpty();
      return;
    }
    List<Integer> expected = new ArrayList<>();
    long[] plain = new long[6];
    for (int c = 0; c < n; c++) {
      if (drops.present(c, SecAggStage.MASKED_INPUT)) {
        expected.add(c);
        for (int i = 0; i < 6; i++) {
          plain[i] += inputs.get(c)[i];
        }
      }
    }
    if (expected.isEmpty()) {
      fail("a round without contributors succeeded");
    }
    long mask = result.modulusBits() == 64 ? -1L : (1L << result.modulusBits()) - 1;
    for (int i = 0; i < 6; i++) {
      plain[i] &= mask;
    }
    assertThat(result.contributors()).isEqualTo(expected);
    assertThat(result.sum()).containsExactly(plain);
  }
}
