package io.tributary.flower.records;

import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.NpyException;
import io.tributary.tensor.npy.NpyHeader;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Flower's {@code Array}: a dtype name, a shape, a serialization type and the serialized data.
 *
 * <p>For {@link #NUMPY} arrays (Flower's {@code Array.from_numpy_ndarray}) the data are the bytes
 * {@code np.save} writes, the dtype is numpy's name for it ({@code str(ndarray.dtype)}:
 * {@code float32}, {@code int64}, {@code bool}, {@code <U5}...) and the shape is the array's.
 * {@link #fromTensor} and {@link #toTensor} convert losslessly for every dtype Tributary and numpy
 * share; {@link #toTensor} views the NPY bytes instead of copying them where they are
 * little-endian and row-major, and refuses an array whose dtype or shape field disagrees with its
 * NPY header.
 *
 * <p>The data array is held, not copied: do not change it after handing it over.
 */
public final class Array {
  /** Flower's {@code SType.NUMPY}. */
  public static final String NUMPY = "numpy.ndarray";

  private final String dtype;
  private final int[] shape;
  private final String stype;
  private final byte[] data;

  /** An array as it travels; nothing is checked until {@link #toTensor}. */
  public Array(String dtype, int[] shape, String stype, byte[] data) {
    this.dtype = Objects.requireNonNull(dtype, "dtype");
    this.shape = shape.clone();
    this.stype = Objects.requireNonNull(stype, "stype");
    this.data = Objects.requireNonNull(data, "data");
  }

  /**
   * The numpy array of {@code t}, as Flower's {@code Array(ndarray)} makes it.
   *
   * @throws IllegalArgumentException for bfloat16, which numpy lacks, or a dimension over
   *     {@code int32}
   */
  public static Array fromTensor(Tensor t) {
    byte[] npy;
    try {
      npy = Npy.toBytes(t);
    } catch (NpyException e) {
      throw new IllegalArgumentException("cannot write " + t.dtype() + " as numpy: "
          + e.getMessage(), e);
    }
    long[] dims = t.shape().dims();
    int[] shape = new int[dims.length];
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("dimension " + dims[i] + " exceeds Flower's int32");
      }
      shape[i] = (int) dims[i];
    }
    return new Array(numpyName(t.dtype(), npy), shape, NUMPY, npy);
  }

  private static String numpyName(DType d, byte[] npy) {
    if (d == DType.STRING) {
      try {
        return Npy.readHeader(npy).descr();
      } catch (NpyException e) {
        throw new IllegalStateException(e);
      }
    }
    return d.typeName();
  }

  /**
   * The tensor these numpy bytes hold.
   *
   * @throws RecordException when the stype is not {@link #NUMPY}, the data are not NPY, the dtype
   *     is one Tributary cannot hold, or the dtype or shape field disagrees with the NPY header
   */
  public Tensor toTensor() throws RecordException {
    if (!NUMPY.equals(stype)) {
      throw new RecordException("unsupported array stype '" + stype + "'");
    }
    NpyHeader header;
    Tensor t;
    try {
      header = Npy.readHeader(data);
      t = Npy.view(data);
    } catch (NpyException e) {
      throw new RecordException("array data are not valid NPY: " + e.getMessage(), e);
    }
    long[] dims = t.shape().dims();
    boolean shapeOk = dims.length == shape.length;
    for (int i = 0; shapeOk && i < dims.length; i++) {
      shapeOk = dims[i] == shape[i];
    }
    if (!shapeOk) {
      throw new RecordException("array shape " + Arrays.toString(shape)
          + " disagrees with its NPY data's shape " + Arrays.toString(dims));
    }
    String expected = t.dtype() == DType.STRING ? stringName(header.descr()) : t.dtype().typeName();
    if (!expected.equals(dtype)) {
      throw new RecordException("array dtype '" + dtype + "' disagrees with its NPY data's '"
          + expected + "'");
    }
    return t;
  }

  private static String stringName(String descr) {
    // numpy prints unicode dtypes with their byte order ('<U5'); a big-endian file says '>U5'.
    return descr;
  }

  public String dtype() {
    return dtype;
  }

  /** The shape, copied. */
  public int[] shape() {
    return shape.clone();
  }

  /** The shape as a list. */
  public List<Integer> shapeList() {
    return Arrays.stream(shape).boxed().toList();
  }

  public String stype() {
    return stype;
  }

  /** The serialized data, not copied: do not change them. */
  public byte[] data() {
    return data;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Array a && dtype.equals(a.dtype) && Arrays.equals(shape, a.shape)
        && stype.equals(a.stype) && Arrays.equals(data, a.data);
  }

  @Override
  public int hashCode() {
    return Objects.hash(dtype, Arrays.hashCode(shape), stype, data.length);
  }

  @Override
  public String toString() {
    return "Array[" + dtype + " " + Arrays.toString(shape) + " " + stype + ", " + data.length
        + " bytes]";
  }
}
