package io.tributary.simulation;

import io.tributary.core.values.StructValue;
import io.tributary.learning.ByzantineUpdate;
import io.tributary.learning.SettingException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Byzantine clients of a simulation (the {@code --byzantine K:MODE} value): in every round, K of
 * the sampled clients send an attacked update in place of their honest one.
 *
 * <p>Which clients: the K cohort positions a {@link SplittableRandom} seeded with {@link
 * Seeds#byzantine Seeds.byzantine(seed, round)} picks (the first K of a Fisher-Yates shuffle of
 * the positions 0..n-1), so a pure function of the seed and the round, independent of the
 * algorithm. What they send: {@link ByzantineUpdate#attacked} of their honest delta with the
 * mode's scale and sigma; the noise of position p is drawn from {@code Seeds.derive(
 * Seeds.byzantine(seed, round), p)}. Their example counts and losses are left as they are.
 *
 * @param clients K, the Byzantine clients per round; 0 for none
 * @param mode what they send
 */
public record Byzantine(int clients, Mode mode) {
  /** No Byzantine clients. */
  public static final Byzantine NONE = new Byzantine(0, new Mode.Scale(1));

  /** What a Byzantine client sends. */
  public sealed interface Mode {
    /** The scale applied to the honest delta. */
    double scale();

    /** The standard deviation of the Gaussian noise added to the scaled delta. */
    double sigma();

    /** {@code scale:S}: the honest delta multiplied by S. */
    record Scale(double factor) implements Mode {
      /**
       * Checks the factor.
       *
       * @throws IllegalArgumentException when it is not finite
       */
      public Scale {
        if (!Double.isFinite(factor)) {
          throw new SettingException("byzantine", "{byzantine}: the scale must be finite, got "
              + factor);
        }
      }

      @Override
      public double scale() {
        return factor;
      }

      @Override
      public double sigma() {
        return 0;
      }

      @Override
      public String toString() {
        return "scale:" + SimulationSettings.number(factor);
      }
    }

    /** {@code signflip}: the honest delta negated, the same as {@code scale:-1}. */
    record SignFlip() implements Mode {
      @Override
      public double scale() {
        return -1;
      }

      @Override
      public double sigma() {
        return 0;
      }

      @Override
      public String toString() {
        return "signflip";
      }
    }

    /** {@code noise:SIGMA}: Gaussian noise of standard deviation SIGMA in place of the delta. */
    record Noise(double standardDeviation) implements Mode {
      /**
       * Checks the standard deviation.
       *
       * @throws IllegalArgumentException when it is not positive and finite
       */
      public Noise {
        if (!(standardDeviation > 0) || !Double.isFinite(standardDeviation)) {
          throw new SettingException("byzantine", "{byzantine}: the noise's SIGMA must be positive "
              + "and finite, got " + standardDeviation);
        }
      }

      @Override
      public double scale() {
        return 0;
      }

      @Override
      public double sigma() {
        return standardDeviation;
      }

      @Override
      public String toString() {
        return "noise:" + SimulationSettings.number(standardDeviation);
      }
    }
  }

  /**
   * Checks the count.
   *
   * @throws IllegalArgumentException when it is negative
   */
  public Byzantine {
    Objects.requireNonNull(mode, "mode");
    if (clients < 0) {
      throw new SettingException("byzantine", "{byzantine}: K must be >= 0, got " + clients);
    }
  }

  /**
   * Reads a {@code --byzantine} value: {@code K:scale:S}, {@code K:signflip} or {@code
   * K:noise:SIGMA}.
   *
   * @throws IllegalArgumentException naming the setting ({@code byzantine}) and what is wrong
   */
  public static Byzantine parse(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    String[] parts = t.split(":", -1);
    String usage = "{byzantine} must be K:scale:S, K:signflip or K:noise:SIGMA, got '" + text
        + "'";
    if (parts.length < 2) {
      throw new SettingException("byzantine", usage);
    }
    int k;
    try {
      k = Integer.parseInt(parts[0]);
    } catch (NumberFormatException e) {
      throw new SettingException("byzantine", usage, e);
    }
    Mode mode = switch (parts[1]) {
      case "signflip" -> {
        if (parts.length != 2) {
          throw new SettingException("byzantine", usage);
        }
        yield new Mode.SignFlip();
      }
      case "scale" -> new Mode.Scale(number(parts, usage));
      case "noise" -> new Mode.Noise(number(parts, usage));
      default -> throw new SettingException("byzantine", "{byzantine}: unknown mode '" + parts[1]
          + "' (scale:S, signflip or noise:SIGMA)");
    };
    return new Byzantine(k, mode);
  }

  private static double number(String[] parts, String usage) {
    if (parts.length != 3) {
      throw new SettingException("byzantine", usage);
    }
    try {
      return Double.parseDouble(parts[2]);
    } catch (NumberFormatException e) {
      throw new SettingException("byzantine", usage, e);
    }
  }

  /** Whether any client is Byzantine. */
  public boolean active() {
    return clients > 0;
  }

  /**
   * The Byzantine cohort positions of round {@code round} of a run with seed {@code seed} whose
   * cohort has {@code cohortSize} clients: K of them, in increasing order.
   *
   * @throws IllegalArgumentException when K exceeds the cohort
   */
  public int[] positions(long seed, int round, int cohortSize) {
    if (clients > cohortSize) {
      throw new SettingException("byzantine", "{byzantine}: K " + clients + " exceeds the "
          + cohortSize + " clients of the round");
    }
    int[] order = new int[cohortSize];
    for (int i = 0; i < cohortSize; i++) {
      order[i] = i;
    }
    SplittableRandom random = new SplittableRandom(Seeds.byzantine(seed, round));
    for (int i = 0; i < clients; i++) {
      int j = i + random.nextInt(cohortSize - i);
      int swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    int[] chosen = Arrays.copyOf(order, clients);
    Arrays.sort(chosen);
    return chosen;
  }

  /**
   * The attack value ({@link ByzantineUpdate#ATTACK}) of every cohort position of round {@code
   * round}: {@link ByzantineUpdate#honest()} but at the {@link #positions}.
   */
  public StructValue[] attacks(long seed, int round, int cohortSize) {
    StructValue[] out = new StructValue[cohortSize];
    Arrays.fill(out, ByzantineUpdate.honest());
    long roundSeed = Seeds.byzantine(seed, round);
    for (int p : positions(seed, round, cohortSize)) {
      out[p] = ByzantineUpdate.attack(mode.scale(), mode.sigma(), Seeds.derive(roundSeed, p));
    }
    return out;
  }

  /** The {@code --byzantine} value, {@code K:MODE}. */
  @Override
  public String toString() {
    return clients + ":" + mode;
  }
}
