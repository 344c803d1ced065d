package io.tributary.tensor.npy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * A failure to write the output while input is being read, carried unchecked past the handlers
 * that turn every {@link IOException} of the input into "corrupt entry data", and unwrapped by
 * the public methods, which throw the original exception.
 */
final class OutputFailure extends UncheckedIOException {
  private static final long serialVersionUID = 1L;

  OutputFailure(IOException cause) {
    super(cause);
  }

  /** Writes to {@code out}, wrapping what it throws. */
  static void write(OutputStream out, byte[] b, int off, int len) {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw new OutputFailure(e);
    }
  }

  /** A stream that writes to {@code out}, wrapping what it throws; closing it does nothing. */
  static OutputStream guard(OutputStream out) {
    return new OutputStream() {
      @Override
      public void write(int b) {
        try {
          out.write(b);
        } catch (IOException e) {
          throw new OutputFailure(e);
        }
      }

      @Override
      public void write(byte[] b, int off, int len) {
        OutputFailure.write(out, b, off, len);
      }

      @Override
      public void flush() {
        try {
          out.flush();
        } catch (IOException e) {
          throw new OutputFailure(e);
        }
      }
    };
  }
}
