package io.tributary.data;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads IDX files, the format of MNIST and Fashion-MNIST, raw or gzip-compressed (recognised by
 * the gzip magic bytes, not the file name).
 *
 * <p>An IDX file is a 4-byte magic {@code 00 00 TT NN} (TT the element type: 08 unsigned byte,
 * 09 signed byte, 0B int16, 0C int32, 0D float32, 0E float64; NN the number of dimensions), NN
 * big-endian unsigned 32-bit dimensions, then the elements, big-endian and row-major.
 *
 * <p>The header is checked in full before any data is allocated: the magic, the type, every
 * dimension (at most 2^31 - 1), the total against a byte limit, and the length of the data. For a
 * raw file the file size must match exactly; for a gzip file (one member, as MNIST is
 * distributed) the uncompressed size recorded in the gzip trailer must match, and the data may not
 * claim more than {@link GzipLimits} allow (by default 100 times the compressed size, at least
 * 1 MiB, at most 4 GiB), all before the arrays are allocated. Any failure is a
 * {@link DatasetFormatException} naming the file.
 */
public final class Idx {
  /** The default limit on an IDX file's data: 2 GiB. */
  public static final long DEFAULT_MAX_BYTES = 1L << 31;

  private static final int GZIP_MIN_SIZE = 18;

  private Idx() {}

  /** Reads {@code file} with the default size limit; see {@link #read(Path, long)}. */
  public static Tensor read(Path file) throws IOException {
    return read(file, DEFAULT_MAX_BYTES);
  }

  /**
   * Reads an IDX file into a tensor of the matching dtype (UINT8, INT8, INT16, INT32, FLOAT32 or
   * FLOAT64) and shape.
   *
   * @param maxBytes the most data bytes accepted; larger headers fail before allocation
   * @throws DatasetFormatException when the file is not a well-formed IDX file
   */
  public static Tensor read(Path file, long maxBytes) throws IOException {
    return read(file, maxBytes, GzipLimits.defaults());
  }

  /**
   * Reads an IDX file as {@link #read(Path, long)} does, letting a gzip file expand only as far
   * as {@code gzip} allows; the size its header and trailer declare is judged before anything is
   * allocated.
   *
   * @throws DatasetFormatException when the file is not a well-formed IDX file or would expand
   *     past the limits
   */
  public static Tensor read(Path file, long maxBytes, GzipLimits gzip) throws IOException {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("maxBytes must be >= 0, got " + maxBytes);
    }
    try (Reader r = open(file, maxBytes, gzip)) {
      return r.readData();
    }
  }

  /**
   * Loads an MNIST-style pair: unsigned-byte images {@code [N, ...]} and unsigned-byte labels
   * {@code [N]}. Features become float32 {@code [N, F]} (each image flattened, F the product of
   * its dimensions) scaled from 0..255 to [0, 1]. Both headers are checked against each other
   * before either file's data is read.
   *
   * @throws DatasetFormatException naming the offending file
   */
  public static Dataset loadDataset(String name, Path images, Path labels, int numClasses)
      throws IOException {
    return loadDataset(name, images, labels, numClasses, GzipLimits.defaults());
  }

  /**
   * Loads an MNIST-style pair as {@link #loadDataset(String, Path, Path, int)} does, letting gzip
   * files expand only as far as {@code gzip} allows.
   *
   * @throws DatasetFormatException naming the offending file
   */
  public static Dataset loadDataset(String name, Path images, Path labels, int numClasses, GzipLimits gzip)
      throws IOException {
    if (numClasses < 1 || numClasses > 256) {
      throw new IllegalArgumentException("numClasses must be in [1, 256], got " + numClasses);
    }
    try (Reader img = open(images, DEFAULT_MAX_BYTES, gzip);
        Reader lab = open(labels, DEFAULT_MAX_BYTES, gzip)) {
      if (img.dtype != DType.UINT8 || img.shape.rank() < 2) {
        throw new DatasetFormatException(images.toString(),
            "expected unsigned-byte images of rank >= 2, found " + img.dtype + img.shape);
      }
      if (lab.dtype != DType.UINT8 || lab.shape.rank() != 1) {
        throw new DatasetFormatException(labels.toString(),
            "expected unsigned-byte labels of rank 1, found " + lab.dtype + lab.shape);
      }
      long n = img.shape.dim(0);
      if (lab.shape.dim(0) != n) {
        throw new DatasetFormatException(labels.toString(),
            lab.shape.dim(0) + " labels but " + images + " holds " + n + " images");
      }
      if (n > Dataset.MAX_EXAMPLES) {
        throw new DatasetFormatException(images.toString(), n + " images are too many");
      }
      Tensor y8 = lab.readData();
      Tensor x8 = img.readData();
      long[] y = new long[(int) n];
      for (int i = 0; i < y.length; i++) {
        y[i] = y8.getByte(i) & 0xff;
        if (y[i] >= numClasses) {
          throw new DatasetFormatException(labels.toString(),
              "label " + y[i] + " of example " + i + " is not below numClasses " + numClasses);
        }
      }
      long[] dims = img.shape.dims();
      long perImage = Shape.of(Arrays.copyOfRange(dims, 1, dims.length)).size();
      Tensors.FloatSink xs = new Tensors.FloatSink(Shape.of(n, perImage));
      byte[] pixels = new byte[1 << 16];
      float[] scaled = new float[pixels.length];
      long total = x8.size();
      for (long at = 0; at < total; at += pixels.length) {
        int len = (int) Math.min(pixels.length, total - at);
        x8.copyBytes(at, pixels, 0, len);
        for (int i = 0; i < len; i++) {
          scaled[i] = (pixels[i] & 0xff) / 255f;
        }
        xs.put(scaled, 0, len);
      }
      return new Dataset(name, xs.build(), Tensors.longs(Shape.of(n), y), numClasses);
    }
  }

  /**
   * Loads a directory laid out as MNIST is distributed: {@code train-images-idx3-ubyte},
   * {@code train-labels-idx1-ubyte}, {@code t10k-images-idx3-ubyte} and
   * {@code t10k-labels-idx1-ubyte}, each raw or with a {@code .gz} suffix. 10 classes.
   *
   * @throws NoSuchFileException naming the first file found in neither form
   */
  public static TrainTestSplit loadMnistLayout(Path dir, String name) throws IOException {
    return loadMnistLayout(dir, name, GzipLimits.defaults());
  }

  /**
   * Loads an MNIST layout as {@link #loadMnistLayout(Path, String)} does, letting gzip files
   * expand only as far as {@code gzip} allows.
   */
  public static TrainTestSplit loadMnistLayout(Path dir, String name, GzipLimits gzip) throws IOException {
    Dataset train = loadDataset(name + "/train", find(dir, "train-images-idx3-ubyte"),
        find(dir, "train-labels-idx1-ubyte"), 10, gzip);
    Dataset test = loadDataset(name + "/test", find(dir, "t10k-images-idx3-ubyte"),
        find(dir, "t10k-labels-idx1-ubyte"), 10, gzip);
    return new TrainTestSplit(train, test);
  }

  private static Path find(Path dir, String base) throws NoSuchFileException {
    Path raw = dir.resolve(base);
    if (Files.isRegularFile(raw)) {
      return raw;
    }
    Path gz = dir.resolve(base + ".gz");
    if (Files.isRegularFile(gz)) {
      return gz;
    }
    throw new NoSuchFileException(raw.toString(), gz.toString(), "neither form exists");
  }

  private static Reader open(Path file, long maxBytes, GzipLimits limits) throws IOException {
    String source = file.toString();
    long fileSize = Files.size(file);
    InputStream raw = Files.newInputStream(file);
    try {
      BufferedInputStream b = new BufferedInputStream(raw, 1 << 16);
      b.mark(2);
      boolean gzip = Gzip.isMagic(b.read(), b.read());
      b.reset();
      long isize = -1;
      InputStream in = b;
      if (gzip) {
        isize = gzipTrailerSize(file, fileSize);
        try {
          in = new BufferedInputStream(new GZIPInputStream(b, 1 << 16), 1 << 16);
        } catch (ZipException | EOFException e) {
          throw new DatasetFormatException(source, "corrupt gzip header: " + e.getMessage());
        }
      }
      Reader r = new Reader(source, in);
      r.readHeader(maxBytes);
      long expected = r.headerBytes + r.dataBytes;
      if (!gzip && fileSize != expected) {
        throw new DatasetFormatException(source, "header describes " + expected
            + " bytes (" + r.headerBytes + " header + " + r.dataBytes + " data) but the file has "
            + fileSize + (fileSize < expected ? ": truncated" : ": trailing bytes"));
      }
      if (gzip && (expected & 0xffffffffL) != isize) {
        throw new DatasetFormatException(source, "header describes " + expected
            + " uncompressed bytes but the gzip trailer records " + isize
            + " (mod 2^32): truncated, corrupt, or not a single gzip member");
      }
      if (gzip && expected > limits.maxBytes(fileSize)) {
        throw new DatasetFormatException(source, "header describes " + expected + " uncompressed bytes: gzip data "
            + limits.refusal(expected, fileSize));
      }
      return r;
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  /** The ISIZE field: the uncompressed length mod 2^32, in the last 4 bytes, little-endian. */
  private static long gzipTrailerSize(Path file, long fileSize) throws IOException {
    if (fileSize < GZIP_MIN_SIZE) {
      throw new DatasetFormatException(file.toString(),
          "gzip file of " + fileSize + " bytes is shorter than the smallest gzip stream");
    }
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      f.seek(fileSize - 4);
      long v = 0;
      for (int i = 0; i < 4; i++) {
        v |= (long) f.read() << (8 * i);
      }
      return v;
    }
  }

  /** One open IDX stream, positioned after its header once {@link #readHeader} has run. */
  private static final class Reader implements AutoCloseable {
    private final String source;
    private final InputStream in;
    private DType dtype;
    private Shape shape;
    private long headerBytes;
    private long dataBytes;

    Reader(String source, InputStream in) {
      this.source = source;
      this.in = in;
    }

    void readHeader(long maxBytes) throws IOException {
      byte[] magic = readExactly(4, "the magic number");
      if (magic[0] != 0 || magic[1] != 0) {
        throw new DatasetFormatException(source, String.format(
            "bad magic 0x%02x%02x%02x%02x: an IDX file starts with two zero bytes",
            magic[0], magic[1], magic[2], magic[3]));
      }
      dtype = switch (magic[2]) {
        case 0x08 -> DType.UINT8;
        case 0x09 -> DType.INT8;
        case 0x0B -> DType.INT16;
        case 0x0C -> DType.INT32;
        case 0x0D -> DType.FLOAT32;
        case 0x0E -> DType.FLOAT64;
        default -> throw new DatasetFormatException(source,
            String.format("unknown element type code 0x%02x", magic[2]));
      };
      int rank = magic[3] & 0xff;
      if (rank == 0) {
        throw new DatasetFormatException(source, "the header declares zero dimensions");
      }
      byte[] d = readExactly(4 * rank, rank + " dimensions");
      long[] dims = new long[rank];
      long count = 1;
      for (int i = 0; i < rank; i++) {
        long v = ((d[4 * i] & 0xffL) << 24) | ((d[4 * i + 1] & 0xffL) << 16)
            | ((d[4 * i + 2] & 0xffL) << 8) | (d[4 * i + 3] & 0xffL);
        if (v > Integer.MAX_VALUE) {
          throw new DatasetFormatException(source,
              "dimension " + i + " is " + v + ", more than 2^31 - 1");
        }
        dims[i] = v;
        // Saturate rather than wrap; a later zero dimension still makes the true product zero.
        count = v != 0 && count > Long.MAX_VALUE / v ? Long.MAX_VALUE : count * v;
      }
      if (count > maxBytes / dtype.itemSize()) {
        throw new DatasetFormatException(source, "dimensions " + Arrays.toString(dims)
            + " of " + dtype + " need more than the " + maxBytes + "-byte limit");
      }
      shape = Shape.of(dims);
      headerBytes = 4L + 4L * rank;
      dataBytes = count * dtype.itemSize();
    }

    Tensor readData() throws IOException {
      TensorBuilder b = TensorBuilder.allocate(dtype, shape);
      int item = dtype.itemSize();
      byte[] block = new byte[1 << 16];
      long done = 0;
      try {
        while (done < dataBytes) {
          int len = (int) Math.min(block.length, dataBytes - done);
          int got = in.readNBytes(block, 0, len);
          if (got < len) {
            throw new DatasetFormatException(source, "data ends after " + (done + got) + " of "
                + dataBytes + " bytes");
          }
          if (item > 1) {
            toLittleEndian(block, len, item);
          }
          b.putBytes(done, block, 0, len);
          done += len;
        }
        if (in.read() >= 0) {
          throw new DatasetFormatException(source,
              "trailing bytes after the " + dataBytes + " data bytes");
        }
      } catch (ZipException | EOFException e) {
        throw new DatasetFormatException(
            source, "corrupt or truncated gzip data: " + e.getMessage());
      }
      return b.build();
    }

    private byte[] readExactly(int n, String what) throws IOException {
      try {
        byte[] out = in.readNBytes(n);
        if (out.length < n) {
          throw new DatasetFormatException(source, "the file ends inside " + what);
        }
        return out;
      } catch (ZipException | EOFException e) {
        throw new DatasetFormatException(
            source, "corrupt or truncated gzip data: " + e.getMessage());
      }
    }

    private static void toLittleEndian(byte[] block, int len, int item) {
      for (int at = 0; at < len; at += item) {
        for (int i = 0, j = item - 1; i < j; i++, j--) {
          byte t = block[at + i];
          block[at + i] = block[at + j];
          block[at + j] = t;
        }
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
