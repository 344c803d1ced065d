package io.tributary.tensor.serialization.internal;

/**
 * A protobuf message that cannot be read or written, with the reason and, when reading, where.
 *
 * <p>Internal: the public serializers turn it into a
 * {@link io.tributary.tensor.serialization.SerializationException} that names the tensor.
 */
public final class WireException extends Exception {
  private static final long serialVersionUID = 1L;

  /** A problem that is not tied to one byte offset, such as a size limit. */
  public WireException(String message) {
    super(message);
  }

  /** A problem found at byte {@code offset} of the message being read. */
  public WireException(String message, int offset) {
    super(message + " (at byte " + offset + ")");
  }
}
