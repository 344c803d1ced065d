package io.tributary.tensor.npy;

import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Reads and writes single arrays in numpy's NPY format.
 *
 * <p>Writing produces exactly the bytes of {@code np.save} for the same little-endian C-order
 * array: format 1.0 when the header fits, else 2.0, with numpy's header text and padding. String
 * tensors are written as {@code <U}n with n the longest element's code point count; bfloat16,
 * which numpy lacks, is refused. Reading accepts format 1.0, 2.0 and 3.0, both byte orders, C and
 * Fortran order, every numeric dtype Tributary shares with numpy and {@code U}/{@code S} strings,
 * and returns little-endian row-major tensors. Object, structured, datetime and other dtypes are
 * refused with {@link NpyUnsupportedDtypeException}. All sizes are checked against the available
 * input before allocation. Readers of whole inputs (a byte array, a file) refuse bytes after the
 * array data, which numpy would silently ignore.
 */
public final class Npy {
  private Npy() {}

  /** The NPY bytes of {@code t}, as {@code np.save} would write them to a {@code BytesIO}. */
  public static byte[] toBytes(Tensor t) throws NpyException {
    return NpyWriter.prepare(t, null).toArray();
  }

  /** Writes {@code t} to {@code out} as {@code np.save} would; does not close {@code out}. */
  public static void write(Tensor t, OutputStream out) throws IOException {
    NpyWriter.prepare(t, null).writeTo(out);
  }

  /**
   * Writes {@code t} in the given format version; 1.0 fails for headers over 64 KiB.
   *
   * @throws NpyException when the header does not fit {@code version}
   */
  public static void write(Tensor t, OutputStream out, NpyVersion version) throws IOException {
    NpyWriter.prepare(t, Objects.requireNonNull(version, "version")).writeTo(out);
  }

  /** Writes {@code t} to {@code file}, replacing it. */
  public static void write(Tensor t, Path file) throws IOException {
    NpyWriter w = NpyWriter.prepare(t, null);
    try (OutputStream out = Files.newOutputStream(file)) {
      w.writeTo(out);
    }
  }

  /**
   * Decodes one NPY array that fills {@code npy} exactly.
   *
   * @throws NpyException on malformed, truncated or trailing input
   * @throws NpyUnsupportedDtypeException for dtypes Tributary cannot hold
   */
  public static Tensor fromBytes(byte[] npy) throws NpyException {
    return decodeWhole(NpyReader.of(Objects.requireNonNull(npy, "npy")));
  }

  /**
   * Decodes one NPY array that fills {@code npy} exactly, viewing its bytes instead of copying
   * them when they are already little-endian and row-major (as {@code np.save} writes on every
   * common machine); other layouts are converted into a new tensor as {@link #fromBytes} does.
   *
   * <p>The caller hands the array over: the tensor is immutable only while nobody writes to
   * {@code npy} again. This is the decode for received messages, whose buffers nobody else holds.
   *
   * @throws NpyException on malformed, truncated or trailing input
   */
  public static Tensor view(byte[] npy) throws NpyException {
    return decodeWhole(NpyReader.viewing(Objects.requireNonNull(npy, "npy")));
  }

  private static Tensor decodeWhole(NpyReader r) throws NpyException {
    try {
      Tensor t = r.data(r.header());
      if (r.remaining() > 0) {
        throw new NpyException(r.remaining() + " unexpected bytes after the array data");
      }
      return t;
    } catch (NpyException e) {
      throw e;
    } catch (IOException e) {
      throw new IllegalStateException("reading a byte array cannot fail with I/O", e);
    }
  }


  /**
   * Reads one array from {@code in}, consuming exactly its bytes, so that several arrays saved
   * one after another can be read in turn.
   *
   * @param maxBytes the most bytes the array may take; a header claiming more data fails before
   *     anything is allocated. Pass the file or entry size when known.
   * @throws NpyException on malformed or truncated input
   */
  public static Tensor read(InputStream in, long maxBytes) throws IOException {
    NpyReader r = NpyReader.of(Objects.requireNonNull(in, "in"), maxBytes);
    return r.data(r.header());
  }

  /**
   * Reads the one array that fills {@code file}.
   *
   * @throws NpyException naming the file, on malformed, truncated or trailing input
   */
  public static Tensor read(Path file) throws IOException {
    long size = Files.size(file);
    try (InputStream in = Files.newInputStream(file)) {
      NpyReader r = NpyReader.of(in, size);
      Tensor t = r.data(r.header());
      if (in.read() >= 0) {
        throw new NpyException("unexpected bytes after the array data");
      }
      return t;
    } catch (NpyException e) {
      throw e.in(file.toString());
    }
  }

  /**
   * Parses the header at the start of {@code npy} without decoding data or judging the dtype.
   *
   * @throws NpyException when the magic, version or header dict is malformed or truncated
   */
  public static NpyHeader readHeader(byte[] npy) throws NpyException {
    try {
      return NpyReader.of(Objects.requireNonNull(npy, "npy")).header().header();
    } catch (NpyException e) {
      throw e;
    } catch (IOException e) {
      throw new IllegalStateException("reading a byte array cannot fail with I/O", e);
    }
  }
}
