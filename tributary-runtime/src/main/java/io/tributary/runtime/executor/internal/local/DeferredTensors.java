package io.tributary.runtime.executor.internal.local;

import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.function.Consumer;

/**
 * The runtime's part in tensors whose elements are made on first read ({@link
 * Tensor#difference}: a client update's delta, lent its client's working copy). A pass that only
 * adds a client's values into sums reads such a delta in place and then {@link #discard}s it, so
 * that it is never written out. A value that more than one client, the server or the caller may
 * read (a server value, one every client shares, a client's argument) is {@link #settle}d (made)
 * where the runtime takes it, since only a value of one client's own work in a pass can be known
 * to be read by nothing once that client is added.
 */
public final class DeferredTensors {
  private DeferredTensors() {}

  /**
   * Makes every deferred tensor in {@code value} (tensors, structs, in-memory lists of them):
   * for a value that outlives one client's work, such as a server value or one every client
   * shares.
   */
  public static void settle(Object value) {
    forEachTensor(value, Tensor::materialize);
  }

  /**
   * Says of every tensor in {@code value} that the next sum over it is the last read of it
   * ({@link Tensor#markLastRead}): for a client's value that one sink adds into its sums and
   * nothing reads after. Said once of a deferred tensor in all, the sum puts the tensor's start
   * back into its working copy in the sweep that reads them; said more than once (a value that
   * several sinks, or one sink twice, take), no sum does.
   */
  public static void markLastRead(Object value) {
    forEachTensor(value, Tensor::markLastRead);
  }

  /**
   * Discards every deferred tensor in {@code value} ({@link Tensor#discard}): for a client's
   * values that nothing reads after they are added.
   */
  public static void discard(Object value) {
    forEachTensor(value, Tensor::discard);
  }

  /** Applies {@code action} to every tensor in {@code value}: tensors, structs, in-memory lists. */
  private static void forEachTensor(Object value, Consumer<Tensor> action) {
    switch (value) {
      case Tensor t -> action.accept(t);
      case StructValue s -> {
        for (Object v : s.values()) {
          forEachTensor(v, action);
        }
      }
      case List<?> l -> {
        for (Object v : l) {
          forEachTensor(v, action);
        }
      }
      case null, default -> { }
    }
  }
}
