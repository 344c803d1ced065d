package io.tributary.cli;

import java.io.IOException;

/**
 * A file the commands cannot use as a tensor file, for a reason of their own rather than of a
 * codec: an unknown extension, a size beyond a format's limit, a tensor count a format cannot hold.
 */
final class TensorFileException extends IOException {
  private static final long serialVersionUID = 1L;

  TensorFileException(String message) {
    super(message);
  }
}
