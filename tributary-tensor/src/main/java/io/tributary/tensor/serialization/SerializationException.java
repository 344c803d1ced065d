package io.tributary.tensor.serialization;

import java.io.IOException;
import java.util.OptionalInt;

/**
 * Parameters that cannot be serialized or deserialized: malformed bytes, an unsupported dtype or
 * tensor type, or a tensor too large for one message.
 *
 * <p>Checked, and an {@link IOException}, because the bytes usually come from the network or a
 * file and a caller must decide what a bad message means (reject one client, not crash the
 * server). When the problem is in one tensor, {@link #tensorIndex()} says which.
 */
public class SerializationException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int tensorIndex;

  /** A problem with the Parameters as a whole. */
  public SerializationException(String message) {
    this(message, null);
  }

  /** A problem with the Parameters as a whole, caused by {@code cause}. */
  public SerializationException(String message, Throwable cause) {
    super(message, cause);
    this.tensorIndex = -1;
  }

  /** A problem with tensor {@code tensorIndex}; the message is prefixed with the index. */
  public SerializationException(int tensorIndex, String message, Throwable cause) {
    super("tensor " + tensorIndex + ": " + message, cause);
    if (tensorIndex < 0) {
      throw new IllegalArgumentException("negative tensor index " + tensorIndex);
    }
    this.tensorIndex = tensorIndex;
  }

  /** The index of the offending tensor in its list, when the problem is in one tensor. */
  public OptionalInt tensorIndex() {
    return tensorIndex < 0 ? OptionalInt.empty() : OptionalInt.of(tensorIndex);
  }
}
