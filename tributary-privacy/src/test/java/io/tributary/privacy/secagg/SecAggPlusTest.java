package io.tributary.privacy.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tributary.privacy.secagg.SecAggException.Reason;
import io.tributary.privacy.secagg.SecAggMessage.MaskedInput;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Whole SecAgg+ rounds among in-memory clients: exact sums, dropouts, what the server sees. */
class SecAggPlusTest {
  private static SecAggSettings settings(int k, int t, int bits, long seed) {
    return SecAggSettings.of(k, t, bits, seed)
        .withRandomness(SecAggRandomness.seededForTestsOnlyNotSecure(seed));
  }

  private static List<long[]> randomInputs(int n, int m, int bits, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<long[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(r.longs(m, 0, bits == 63 ? Long.MAX_VALUE : 1L << bits).toArray());
    }
    return out;
  }

  private static long[] plainSum(List<long[]> inputs, List<Integer> clients, int bits) {
    long[] s = new long[inputs.get(0).length];
    for (int c : clients) {
      for (int i = 0; i < s.length; i++) {
        s[i] += inputs.get(c)[i];
      }
    }
    return reduce(s, bits);
  }

  private static long[] reduce(long[] s, int bits) {
    long mask = bits == 64 ? -1L : (1L << bits) - 1;
    for (int i = 0; i < s.length; i++) {
      s[i] &= mask;
    }
    return s;
  }

  private static List<Integer> range(int n) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  @ParameterizedTest(name = "n={0} k={1} t={2} bits={3}")
  @CsvSource({"2,1,1,8", "3,2,2,16", "5,2,2,20", "7,3,2,32", "8,4,3,12", "12,5,3,24",
      "16,6,4,40", "10,20,11,62", "9,4,3,63"})
  void sum_randomInputs_isTheExactSum(int n, int k, int t, int bits) {
    List<long[]> inputs = randomInputs(n, 33, bits, 1000L * n + k);

    SecAggResult r = SecAggPlus.sum(settings(k, t, bits, 7L * n), inputs, Dropouts.none());

    assertThat(r.contributors()).isEqualTo(range(n));
    assertThat(r.sum()).containsExactly(plainSum(inputs, range(n), 64));
    assertThat(r.transcript().sum()).hasValueSatisfying(s -> assertThat(s).isEqualTo(r.sum()));
  }

  @Test
  void sum_dropoutsAfterShareKeys_isTheExactSumOfTheSurvivors() {
    int n = 12;
    List<long[]> inputs = randomInputs(n, 50, 16, 3);
    Dropouts drops = Dropouts.none().dropBefore(SecAggStage.MASKED_INPUT, 1, 5, 6);

    SecAggResult r = SecAggPlus.sum(settings(8, 5, 16, 11), inputs, drops);

    List<Integer> survivors = new ArrayList<>(range(n));
    survivors.removeAll(List.of(1, 5, 6));
    assertThat(r.contributors()).isEqualTo(survivors);
    assertThat(r.sum()).containsExactly(plainSum(inputs, survivors, r.modulusBits()));
    // The dropped clients' pairwise keys were recovered, the survivors' self masks.
    for (SecAggMessage.UnmaskShares u : r.transcript().unmaskShares()) {
      for (int owner : u.maskingKeyOwners()) {
        assertThat(owner).isIn(1, 5, 6);
      }
      for (int owner : u.selfMaskOwners()) {
        assertThat(owner).isNotIn(1, 5, 6);
      }
    }
  }

  @Test
  void sum_dropoutsAtEveryStageWithinThreshold_isTheExactSumOfTheSurvivors() {
    int n = 16;
    List<long[]> inputs = randomInputs(n, 20, 10, 4);
    Dropouts drops = Dropouts.none()
        .dropBefore(SecAggStage.SHARE_KEYS, 3)
        .dropBefore(SecAggStage.MASKED_INPUT, 9)
        .dropBefore(SecAggStage.UNMASK, 12);

    SecAggResult r = SecAggPlus.sum(settings(8, 5, 10, 5), inputs, drops);

    List<Integer> contributors = new ArrayList<>(range(n));
    contributors.removeAll(List.of(3, 9));
    assertThat(r.contributors()).isEqualTo(contributors);
    assertThat(r.sum()).containsExactly(plainSum(inputs, contributors, r.modulusBits()));
  }

  @Test
  void sum_fewerThanThresholdSurvivors_failsTypedAndTheServerHoldsNoSum() {
    int n = 5;
    List<long[]> inputs = randomInputs(n, 40, 16, 5);
    Dropouts drops = Dropouts.none().dropBefore(SecAggStage.MASKED_INPUT, 0, 1, 2);

    assertThatThrownBy(() -> SecAggPlus.sum(settings(4, 3, 16, 2), inputs, drops))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.TOO_FEW_SURVIVORS);
          assertThat(e.client()).isPresent();
          SecAggTranscript t = e.transcript().orElseThrow();
          assertThat(t.sum()).isEmpty();
          assertThat(t.unmaskShares()).as("nobody was asked for shares").isEmpty();
          long[] maskedTotal = new long[40];
          for (MaskedInput m : t.maskedInputs()) {
            for (int i = 0; i < 40; i++) {
              maskedTotal[i] += m.masked()[i];
            }
          }
          int bits = SecAggSettings.of(4, 3, 16, 2).modulusBits(n);
          assertThat(reduce(maskedTotal, bits))
              .isNotEqualTo(plainSum(inputs, List.of(3, 4), bits));
        });
  }

  @Test
  void sum_everyClientDropsBeforeSharing_failsTypedInsteadOfAnEmptySum() {
    List<long[]> inputs = randomInputs(3, 4, 8, 7);
    Dropouts drops = Dropouts.none().dropBefore(SecAggStage.SHARE_KEYS, 0, 1, 2);

    assertThatThrownBy(() -> SecAggPlus.sum(settings(2, 2, 8, 3), inputs, drops))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.TOO_FEW_SURVIVORS);
          assertThat(e.getMessage()).contains("only 0 clients shared keys");
        });
  }

  @Test
  void sum_tooFewClientsAnswerTheUnmaskRequest_failsTypedAndRevealsNoSum() {
    int n = 5;
    List<long[]> inputs = randomInputs(n, 10, 8, 6);
    Dropouts drops = Dropouts.none().dropBefore(SecAggStage.UNMASK, 0, 4);

    assertThatThrownBy(() -> SecAggPlus.sum(settings(4, 3, 8, 3), inputs, drops))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.TOO_FEW_SURVIVORS);
          assertThat(e.getMessage()).contains("fewer than the threshold 3");
          assertThat(e.transcript().orElseThrow().sum()).isEmpty();
        });
  }

  @Test
  void sum_whatTheServerReceives_isMaskedForEveryClient() {
    int n = 8;
    int bits = 16;
    List<long[]> inputs = randomInputs(n, 64, bits, 8);

    SecAggResult r = SecAggPlus.sum(settings(4, 3, bits, 9), inputs, Dropouts.none());

    int modulus = r.modulusBits();
    long[] maskedTotal = new long[64];
    for (MaskedInput m : r.transcript().maskedInputs()) {
      assertThat(m.masked()).isNotEqualTo(inputs.get(m.client()));
      for (int i = 0; i < 64; i++) {
        maskedTotal[i] += m.masked()[i];
      }
    }
    for (MaskedInput m : r.transcript().maskedInputs()) {
      long[] withoutOne = maskedTotal.clone();
      for (int i = 0; i < 64; i++) {
        withoutOne[i] -= m.masked()[i];
      }
      List<Integer> others = new ArrayList<>(range(n));
      others.remove(Integer.valueOf(m.client()));
      assertThat(reduce(withoutOne, modulus)).as("the others' sum without client " + m.client())
          .isNotEqualTo(plainSum(inputs, others, modulus));
    }
  }

  @Test
  void sum_maskedVectorOfZeros_looksUniformOverTheModulus() {
    int n = 4;
    int m = 20_000;
    List<long[]> zeros = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      zeros.add(new long[m]);
    }

    SecAggResult r = SecAggPlus.sum(settings(2, 2, 8, 10), zeros, Dropouts.none());

    double modulus = Math.pow(2, r.modulusBits());
    for (MaskedInput in : r.transcript().maskedInputs()) {
      int[] quarters = new int[4];
      double mean = 0;
      for (long v : in.masked()) {
        assertThat(v).isBetween(0L, (long) modulus - 1);
        quarters[(int) (v * 4 / (long) modulus)]++;
        mean += v / modulus / m;
      }
      assertThat(mean).isCloseTo(0.5, within(0.02));
      for (int q : quarters) {
        assertThat(q).isBetween(m / 4 - 400, m / 4 + 400);
      }
    }
    assertThat(r.sum()).containsOnly(0L);
  }

  @Test
  void sum_seededRandomness_repeatsTheTranscript() {
    List<long[]> inputs = randomInputs(6, 8, 12, 12);

    SecAggResult a = SecAggPlus.sum(settings(4, 3, 12, 13), inputs, Dropouts.none());
    SecAggResult b = SecAggPlus.sum(settings(4, 3, 12, 13), inputs, Dropouts.none());

    for (int i = 0; i < 6; i++) {
      assertThat(a.transcript().maskedInputs().get(i).masked())
          .isEqualTo(b.transcript().maskedInputs().get(i).masked());
    }
  }

  @Test
  void sum_secureRandomness_masksDifferentlyEachRound() {
    List<long[]> inputs = randomInputs(4, 8, 12, 14);
    SecAggSettings s = SecAggSettings.of(2, 2, 12, 1);

    SecAggResult a = SecAggPlus.sum(s, inputs, Dropouts.none());
    SecAggResult b = SecAggPlus.sum(s, inputs, Dropouts.none());

    assertThat(a.sum()).isEqualTo(b.sum());
    assertThat(a.transcript().maskedInputs().get(0).masked())
        .isNotEqualTo(b.transcript().maskedInputs().get(0).masked());
  }

  @Test
  void sum_inputOutOfRange_failsTypedNamingTheClient() {
    List<long[]> inputs = randomInputs(4, 5, 8, 15);
    inputs.get(2)[3] = 256;

    assertThatThrownBy(() -> SecAggPlus.sum(settings(2, 2, 8, 1), inputs, Dropouts.none()))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.INPUT_OUT_OF_RANGE);
          assertThat(e.client()).hasValue(2);
          assertThat(e.transcript().orElseThrow().sum()).isEmpty();
        });
  }

  @Test
  void sum_oneClient_failsTyped() {
    assertThatThrownBy(() -> SecAggPlus.sum(settings(2, 2, 8, 1), List.of(new long[3]),
        Dropouts.none()))
        .isInstanceOfSatisfying(SecAggException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.TOO_FEW_CLIENTS));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"STOCHASTIC", "NEAREST"})
  void sumFloats_clippedUpdates_isTheSumWithinTheQuantizationError(Rounding rounding) {
    int n = 6;
    SplittableRandom random = new SplittableRandom(16);
    List<double[]> updates = new ArrayList<>();
    double[] expected = new double[30];
    for (int c = 0; c < n; c++) {
      double[] u = random.doubles(30, -3, 3).toArray();
      updates.add(u);
      if (c != 4) {
        for (int i = 0; i < u.length; i++) {
          expected[i] += Math.max(-2, Math.min(2, u[i]));
        }
      }
    }
    SecAggSettings s = settings(4, 3, 20, 17).withQuantization(2.0, rounding);

    SecAggFloatResult r = SecAggPlus.sumFloats(s, updates,
        Dropouts.none().dropBefore(SecAggStage.MASKED_INPUT, 4));

    double step = Quantizer.of(s).step();
    assertThat(r.contributors()).containsExactly(0, 1, 2, 3, 5);
    for (int i = 0; i < expected.length; i++) {
      assertThat(r.sum()[i]).isCloseTo(expected[i], within(5 * step + 1e-9));
    }
  }
}
