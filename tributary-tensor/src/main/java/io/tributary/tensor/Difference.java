package io.tributary.tensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What a tensor of {@link Tensor#difference} is made of: {@code minuend[i] - subtrahend[i]} over
 * two arrays its maker lent it, made into storage only when something reads the tensor's bytes.
 * A reader that can use the arrays themselves ({@link TensorMath#addScaled(List, double[],
 * double[], long)}, {@link Finite}) {@link #pin}s them instead, so that a client's update that
 * is only added into a sum is never written out: the sum reads the trained and the start arrays
 * in the same sweep.
 *
 * <p>The loan ends once: when the elements are made (the minuend then holds the subtrahend's
 * elements again where nobody else read the arrays at that moment: the copy that makes them puts
 * them back in the same sweep), when the tensor is {@link #discard}ed unread, or when a sum said
 * to be the last read ({@link #markLastRead}) has read every element, putting the subtrahend's
 * elements back into the minuend as it went ({@link #pinToSum}); never while a reader holds a
 * {@link #pin}. Once a last read has put elements back, the elements can no longer be made or
 * read: a reader that tries gets an {@link IllegalStateException}, never other bits.
 *
 * <p>The subtraction is the dtype's own (a float minus a float, rounded to float), whoever
 * computes it, so the elements are the same bits made or read in place.
 *
 * <p>A rank-one difference ({@link Tensor#rankOneStep}) has no minuend array: its minuend is the
 * step {@code fma(fma(u_i, v_j, 0), alpha, start_ij)} that a fused product-accumulate would have
 * written, computed where it is read ({@link RankOneFactors}); nothing is lent, since the start is
 * only read, so nothing is ever given back.
 */
final class Difference {
  /**
   * Bytes per piece of the made storage: a power of two (what a chunked store needs), below G1's
   * humongous threshold for every region size (half of the smallest region, 1 MB). One 4 MB
   * buffer per client update of a 1,000,000-parameter model was allocated straight into the old
   * generation, and each such allocation could start a concurrent marking cycle.
   */
  static final int PIECE_BYTES = 256 << 10;

  /** Elements subtracted into a small array, then copied into the storage at once. */
  private static final int CHUNK = 2048;

  private final float[] minuendF;
  private final float[] subtrahendF;
  private final double[] minuendD;
  private final double[] subtrahendD;
  private final int size;
  /** Whether the lender checked every subtrahend element finite and below 2^127 (2^1023). */
  private final boolean subtrahendWithin;
  private final Tensor.Loan loan;
  /** A rank-one difference's factors, or null: the minuend is then an array. */
  private final RankOneFactors factors;

  /** The made storage, once made. */
  private volatile ByteStore made;
  // Guarded by this.
  private boolean discarded;
  private int pins;
  /** Whether the loan ended (returned, or due once the pins are released). */
  private boolean ended;
  private boolean returnOnUnpin;
  /** How many times a reader said its read is the last ({@link #markLastRead}). */
  private int lastReads;
  /** The minuend holds the subtrahend's elements again below this index (a last read's). */
  private int givenBackTo;
  /** Whether a last read holds the arrays and puts elements back as it reads them. */
  private boolean givingBack;
  /** Whether a last read stopped part way through a slice: which elements are back is unknown. */
  private boolean torn;

  Difference(float[] minuend, float[] subtrahend, int size, boolean subtrahendWithin,
      Tensor.Loan loan) {
    this.minuendF = minuend;
    this.subtrahendF = subtrahend;
    this.minuendD = null;
    this.subtrahendD = null;
    this.size = size;
    this.subtrahendWithin = subtrahendWithin;
    this.loan = loan;
    this.factors = null;
  }

  /**
   * A rank-one difference ({@link RankOneFactors}); nothing is lent, so its loan is no one's.
   */
  Difference(RankOneFactors factors, boolean startWithin) {
    this.minuendF = null;
    this.subtrahendF = null;
    this.minuendD = null;
    this.subtrahendD = null;
    this.size = factors.size();
    this.subtrahendWithin = startWithin;
    this.loan = restored -> { };
    this.factors = factors;
  }

  Difference(double[] minuend, double[] subtrahend, int size, boolean subtrahendWithin,
      Tensor.Loan loan) {
    this.minuendF = null;
    this.subtrahendF = null;
    this.minuendD = minuend;
    this.subtrahendD = subtrahend;
    this.size = size;
    this.subtrahendWithin = subtrahendWithin;
    this.loan = loan;
    this.factors = null;
  }

  /** The tensor's storage, made now if it is not yet. */
  ByteStore store() {
    ByteStore m = made;
    if (m != null) {
      return m;
    }
    synchronized (this) {
      if (made != null) {
        return made;
      }
      requireUntouched();
      if (discarded) {
        throw new IllegalStateException("this tensor's elements were discarded unread: its "
            + "maker said nothing would read it again");
      }
      // Put the subtrahend back into the minuend in the same sweep, unless a reader holds the
      // arrays now (it reads the minuend as it is).
      boolean restore = pins == 0;
      ByteStore s = make(restore);
      made = s;
      end(restore);
      return s;
    }
  }

  /** Makes the elements now if they are yet to be made; no effect once made or discarded. */
  synchronized void settle() {
    if (made == null && !discarded) {
      store();
    }
  }

  /** Whether the elements are yet to be made and the arrays still lent. */
  synchronized boolean pending() {
    return made == null && !discarded;
  }

  /** Ends the loan without making the elements: nothing will read them. */
  synchronized void discard() {
    if (made == null && !discarded) {
      discarded = true;
      end(false);
    }
  }

  /**
   * Holds the lent arrays for a reader that reads them in place, until {@link #unpin}: false
   * when they are no longer lent (the reader then reads the made storage).
   */
  synchronized boolean pin() {
    if (made != null || discarded) {
      return false;
    }
    requireUntouched();
    pins++;
    return true;
  }

  /**
   * Says that one reader's next sum over the elements is its last read of them. Said once in
   * all, that sum puts the subtrahend's elements back into the minuend as it reads them ({@link
   * #pinToSum}); said more than once, some other reader is still to come, and no sum does.
   */
  synchronized void markLastRead() {
    if (made == null && !discarded) {
      lastReads++;
    }
  }

  /** {@link #pinToSum}: the arrays are not lent (read the made storage). */
  static final int UNPINNED = 0;
  /** {@link #pinToSum}: pinned, to be read only; {@link #unpin} when done. */
  static final int READ = 1;
  /**
   * {@link #pinToSum}: pinned, to be read and put back element by element, each minuend
   * element read before it is overwritten; {@link #gaveBack} when done.
   */
  static final int GIVE_BACK = 2;

  /**
   * Pins the arrays for a sum that reads elements {@code [from, from + len)} in place, and says
   * whether it is to put the subtrahend's elements back into the minuend as it reads them: so
   * when this is the only reader, the one said to be last ({@link #markLastRead}), and the slice
   * continues the elements already put back.
   *
   * @throws IllegalStateException when elements of the slice were already put back
   */
  synchronized int pinToSum(int from, int len) {
    if (made != null || discarded) {
      return UNPINNED;
    }
    if (factors != null) {
      // Nothing to give back: the start is only read.
      pins++;
      return READ;
    }
    if (givingBack || torn || from < givenBackTo) {
      throw givenBack();
    }
    pins++;
    if (lastReads == 1 && pins == 1 && from == givenBackTo && len > 0) {
      givingBack = true;
      return GIVE_BACK;
    }
    return READ;
  }

  /**
   * Ends a {@link #GIVE_BACK} pin: elements up to {@code to} are the subtrahend's again when the
   * sum {@code completed} its slice. Once every element is back, the loan ends (restored) and
   * the elements are gone, as if discarded.
   */
  synchronized void gaveBack(int to, boolean completed) {
    givingBack = false;
    if (completed) {
      givenBackTo = to;
    } else {
      torn = true;
    }
    unpin();
    if (givenBackTo == size && !torn) {
      discarded = true;
      end(true);
    }
  }

  /** Throws when a last read put elements back: they can no longer be read. */
  private void requireUntouched() {
    if (givingBack || torn || givenBackTo > 0) {
      throw givenBack();
    }
  }

  private static IllegalStateException givenBack() {
    return new IllegalStateException("this tensor's elements were given back to their lender "
        + "by the read its maker said was the last");
  }

  /** Releases a {@link #pin}; the last one returns a loan that ended meanwhile. */
  synchronized void unpin() {
    pins--;
    if (pins == 0 && returnOnUnpin) {
      returnOnUnpin = false;
      loan.returned(false);
    }
  }

  private void end(boolean restored) {
    if (ended) {
      return;
    }
    ended = true;
    if (pins > 0) {
      returnOnUnpin = true;
    } else {
      loan.returned(restored);
    }
  }

  /**
   * Whether every subtrahend element is finite and below half the largest power of two
   * ({@link Finite#withinHalfRange(float[], int)}), as the lender said.
   */
  boolean subtrahendWithinHalfRange() {
    return subtrahendWithin;
  }

  /** A rank-one difference's factors, or null for a difference of two arrays. */
  RankOneFactors factors() {
    return factors;
  }

  /** The minuend, for a pinned reader: float32. */
  float[] minuendFloats() {
    return minuendF;
  }

  /** The subtrahend, for a pinned reader: float32. */
  float[] subtrahendFloats() {
    return subtrahendF;
  }

  /** The minuend, for a pinned reader: float64. */
  double[] minuendDoubles() {
    return minuendD;
  }

  /** The subtrahend, for a pinned reader: float64. */
  double[] subtrahendDoubles() {
    return subtrahendD;
  }

  /** The storage: the differences in pieces of {@link #PIECE_BYTES}. */
  private ByteStore make(boolean restore) {
    int item = minuendD == null ? 4 : 8;
    int perPiece = PIECE_BYTES / item;
    List<ByteBuffer> pieces = new ArrayList<>((size + perPiece - 1) / perPiece);
    for (int from = 0; from < size; from += perPiece) {
      int len = Math.min(perPiece, size - from);
      ByteBuffer piece = ByteBuffer.allocate(len * item).order(ByteOrder.LITTLE_ENDIAN);
      if (factors != null) {
        float[] chunk = new float[Math.min(CHUNK, len)];
        FloatBuffer out = piece.asFloatBuffer();
        for (int at = 0; at < len; at += CHUNK) {
          int m = Math.min(CHUNK, len - at);
          factors.elements(from + at, m, chunk);
          out.put(at, chunk, 0, m);
        }
      } else if (minuendF != null) {
        subtract(minuendF, subtrahendF, from, len, piece.asFloatBuffer(), restore);
      } else {
        subtract(minuendD, subtrahendD, from, len, piece.asDoubleBuffer(), restore);
      }
      pieces.add(piece);
    }
    return ByteStore.wrapChunks(pieces);
  }

  /**
   * Elements {@code [from, from + len)} of {@code a - b} into {@code out} from its index 0, and
   * {@code b}'s elements copied back into {@code a} when {@code restore}.
   */
  private static void subtract(float[] a, float[] b, int from, int len, FloatBuffer out,
      boolean restore) {
    float[] chunk = new float[Math.min(CHUNK, len)];
    for (int at = 0; at < len; at += CHUNK) {
      int m = Math.min(CHUNK, len - at);
      int base = from + at;
      for (int j = 0; j < m; j++) {
        chunk[j] = a[base + j] - b[base + j];
      }
      if (restore) {
        System.arraycopy(b, base, a, base, m);
      }
      out.put(at, chunk, 0, m);
    }
  }

  /** As {@link #subtract(float[], float[], int, int, FloatBuffer, boolean)}, for doubles. */
  private static void subtract(double[] a, double[] b, int from, int len, DoubleBuffer out,
      boolean restore) {
    double[] chunk = new double[Math.min(CHUNK, len)];
    for (int at = 0; at < len; at += CHUNK) {
      int m = Math.min(CHUNK, len - at);
      int base = from + at;
      for (int j = 0; j < m; j++) {
        chunk[j] = a[base + j] - b[base + j];
      }
      if (restore) {
        System.arraycopy(b, base, a, base, m);
      }
      out.put(at, chunk, 0, m);
    }
  }
}
