package io.tributary.tensor.npy;

import java.io.IOException;

/**
 * NPY or NPZ input that cannot be decoded, or a tensor that cannot be encoded.
 *
 * <p>The message says what was wrong and, once the exception has passed through a file or
 * archive reader, where: {@code "model.npz: entry 'w.npy': data ends after 12 of 48 bytes"}.
 */
public class NpyException extends IOException {
  public NpyException(String message) {
    super(message);
  }

  public NpyException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * The same problem with {@code source} (a file or an archive entry) put in front of the
   * message; the result has this exception's type and this exception as its cause.
   */
  public NpyException in(String source) {
    return new NpyException(source + ": " + getMessage(), this);
  }
}
