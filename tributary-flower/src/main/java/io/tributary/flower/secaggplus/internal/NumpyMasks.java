package io.tributary.flower.secaggplus.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Flower's {@code pseudo_rand_gen}: the masks numpy's legacy {@code RandomState} (MT19937 seeded
 * with one 32-bit word) draws with {@code randint(0, num_range - 1, shape, dtype=int64)}, so that
 * a mask made here cancels one made by Python. The seed is the XOR of the seed bytes' 32-bit
 * little-endian words; draws use numpy's masked rejection sampling.
 */
public final class NumpyMasks {
  private static final int N = 624;
  private static final int M = 397;

  private final int[] mt = new int[N];
  private int pos;

  private NumpyMasks(int seed) {
    mt[0] = seed;
    for (int i = 1; i < N; i++) {
      mt[i] = 1812433253 * (mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
    }
    pos = N;
  }

  /**
   * The masks for arrays of the given element counts, each in {@code [0, numRange - 2]} as
   * Flower's exclusive upper bound {@code num_range - 1} makes them.
   *
   * @throws IllegalArgumentException when the seed's length is not a multiple of 4 or
   *     {@code numRange < 2}
   */
  public static List<long[]> masks(byte[] seed, long numRange, long[] sizes) {
    if ((seed.length & 3) != 0) {
      throw new IllegalArgumentException("a mask seed of " + seed.length
          + " bytes is not a multiple of 4");
    }
    if (numRange < 2) {
      throw new IllegalArgumentException("mod_range " + numRange + " is below 2");
    }
    int seed32 = 0;
    for (int i = 0; i < seed.length; i += 4) {
      seed32 ^= (seed[i] & 0xff) | (seed[i + 1] & 0xff) << 8 | (seed[i + 2] & 0xff) << 16
          | (seed[i + 3] & 0xff) << 24;
    }
    NumpyMasks gen = new NumpyMasks(seed32);
    long rng = numRange - 2;
    List<long[]> out = new ArrayList<>(sizes.length);
    for (long size : sizes) {
      long[] a = new long[Math.toIntExact(size)];
      for (int i = 0; i < a.length; i++) {
        a[i] = gen.bounded(rng);
      }
      out.add(a);
    }
    return out;
  }

  /** numpy's {@code random_bounded_uint64_fill} for one value in {@code [0, rng]}, masked. */
  private long bounded(long rng) {
    if (rng == 0) {
      return 0;
    }
    long mask = rng;
    mask |= mask >>> 1;
    mask |= mask >>> 2;
    mask |= mask >>> 4;
    mask |= mask >>> 8;
    mask |= mask >>> 16;
    mask |= mask >>> 32;
    if (Long.compareUnsigned(rng, 0xFFFFFFFFL) <= 0) {
      if (rng == 0xFFFFFFFFL) {
        return next32();
      }
      long v;
      do {
        v = next32() & mask;
      } while (Long.compareUnsigned(v, rng) > 0);
      return v;
    }
    long v;
    do {
      v = ((next32() << 32) | next32()) & mask;
    } while (Long.compareUnsigned(v, rng) > 0);
    return v;
  }

  private long next32() {
    if (pos == N) {
      twist();
    }
    int y = mt[pos++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y & 0xFFFFFFFFL;
  }

  private void twist() {
    for (int i = 0; i < N; i++) {
      int y = (mt[i] & 0x80000000) | (mt[(i + 1) % N] & 0x7fffffff);
      mt[i] = mt[(i + M) % N] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
    }
    pos = 0;
  }
}
