package io.tributary.graph.local;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.DType;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * The kernel arrays of batches read before, by the identity of the batch value, within a cap on
 * their bytes: a simulation evaluates on the same test batches every round, which would
 * otherwise be converted from their tensors again each time. Values are immutable, so a batch
 * value seen again holds the same elements; the arrays are only read (kernels never write into
 * the arrays they are fed). The least recently read batches leave first once the cap is reached.
 *
 * <p>A batch is kept from its second read on: the first only notes the value's identity hash
 * (the last {@value #NOTED} of them). Batches made afresh for each read (a generated population,
 * a million clients' examples) are then never kept, where keeping each for a while made every one
 * of them outlive young collections (a 1,000,000-parameter population's evaluation spent a sixth
 * of its time in G1); a hash noted for another value only lets that one in a read early.
 * Thread-safe.
 */
final class BatchCache {
  /** An identity key: two batch values are the same entry only when they are one object. */
  private record Key(Object value) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.value == value;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(value);
    }
  }

  /** How many first reads' identity hashes are remembered. */
  static final int NOTED = 4096;

  private final long capBytes;
  private final LinkedHashMap<Key, LocalBatch> batches = new LinkedHashMap<>(64, 0.75f, true);
  /** Identity hashes of values read once and not kept, oldest first. */
  private final LinkedHashSet<Integer> noted = new LinkedHashSet<>();
  private long bytes;

  /** An empty cache holding at most {@code capBytes} of arrays; 0 keeps nothing. */
  BatchCache(long capBytes) {
    if (capBytes < 0) {
      throw new IllegalArgumentException("capBytes is negative: " + capBytes);
    }
    this.capBytes = capBytes;
  }

  /**
   * Batch {@code index} of the data described by {@code where} (see {@link LocalBatch#read}), from
   * the cache when this very value was read before.
   */
  LocalBatch read(Object element, String where, long index) {
    Key key = new Key(element);
    boolean again;
    synchronized (this) {
      LocalBatch b = batches.get(key);
      if (b != null) {
        return b;
      }
      Integer hash = System.identityHashCode(element);
      again = noted.remove(hash);
      if (!again) {
        noted.add(hash);
        if (noted.size() > NOTED) {
          noted.remove(noted.iterator().next());
        }
      }
    }
    LocalBatch b = LocalBatch.read(element, where, index);
    long size = bytesOf(b);
    if (again && size <= capBytes) {
      synchronized (this) {
        if (batches.putIfAbsent(key, b) == null) {
          bytes += size;
          Iterator<Map.Entry<Key, LocalBatch>> eldest = batches.entrySet().iterator();
          while (bytes > capBytes) {
            bytes -= bytesOf(eldest.next().getValue());
            eldest.remove();
          }
        }
      }
    }
    return b;
  }

  /** The bytes the arrays of {@code b} hold (for the cap). */
  private static long bytesOf(LocalBatch b) {
    return bytesOf(b.x()) + bytesOf(b.y());
  }

  /** A kernel array holds float32 in 4 bytes an element and every other dtype in 8. */
  private static long bytesOf(NdArray a) {
    return (long) a.size() * (a.dtype() == DType.FLOAT32 ? 4 : 8);
  }

  /** The bytes held now (for tests). */
  synchronized long bytes() {
    return bytes;
  }

  /** The batches held now (for tests). */
  synchronized int size() {
    return batches.size();
  }
}
