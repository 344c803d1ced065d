package io.tributary.tensor.serialization;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The {@code Parameters} message of Flower's protocol, with FEP-0002's {@code values} field: a
 * list of serialized tensors and the {@code tensor_type} that says how to read them.
 *
 * <p>{@code numpy.ndarray} keeps one NPY blob per tensor in {@link #tensors()};
 * {@code proto.ndarray} keeps one encoded {@code Value} message per tensor in {@link #values()}.
 * The lists are unmodifiable. The byte arrays in them are not copied, since model weights run to
 * hundreds of megabytes: whoever builds a Parameters hands its arrays over, and nobody may
 * modify them afterwards. Equality compares the arrays' contents.
 */
public final class Parameters {
  private final List<byte[]> tensors;
  private final String tensorType;
  private final List<byte[]> values;

  /**
   * @param tensors field 1: serialized tensors (for {@code numpy.ndarray}, NPY blobs)
   * @param tensorType field 2: the format of the tensors or values
   * @param values field 3: encoded {@code Value} messages (for {@code proto.ndarray})
   */
  public Parameters(List<byte[]> tensors, String tensorType, List<byte[]> values) {
    this.tensors = List.copyOf(tensors);
    this.tensorType = Objects.requireNonNull(tensorType, "tensorType");
    this.values = List.copyOf(values);
  }

  /** Parameters with tensors only, as Flower itself sends them. */
  public static Parameters ofTensors(String tensorType, List<byte[]> tensors) {
    return new Parameters(tensors, tensorType, List.of());
  }

  /** Parameters with {@code Value}s only, as {@code proto.ndarray} sends them. */
  public static Parameters ofValues(String tensorType, List<byte[]> values) {
    return new Parameters(List.of(), tensorType, values);
  }

  /** Field 1: one serialized tensor per entry. */
  public List<byte[]> tensors() {
    return tensors;
  }

  /** Field 2: the name of the format, such as {@code numpy.ndarray}. */
  public String tensorType() {
    return tensorType;
  }

  /** Field 3: one encoded {@code Value} message per entry. */
  public List<byte[]> values() {
    return values;
  }

  /** Total bytes of tensors and values, not counting message framing. */
  public long payloadBytes() {
    long n = 0;
    for (byte[] b : tensors) {
      n += b.length;
    }
    for (byte[] b : values) {
      n += b.length;
    }
    return n;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Parameters other
        && tensorType.equals(other.tensorType)
        && sameContents(tensors, other.tensors)
        && sameContents(values, other.values);
  }

  private static boolean sameContents(List<byte[]> a, List<byte[]> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!Arrays.equals(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = tensorType.hashCode();
    for (byte[] b : tensors) {
      h = 31 * h + Arrays.hashCode(b);
    }
    for (byte[] b : values) {
      h = 31 * h + Arrays.hashCode(b);
    }
    return h;
  }

  /** A summary such as {@code Parameters[proto.ndarray, 0 tensors, 3 values, 1200 bytes]}. */
  @Override
  public String toString() {
    return summary(tensorType, tensors.size(), values.size(), payloadBytes());
  }

  /** {@link #toString()} of Parameters with these counts, without building them. */
  static String summary(String tensorType, int tensors, int values, long payloadBytes) {
    return "Parameters[" + tensorType + ", " + tensors + " tensors, " + values + " values, " + payloadBytes
        + " bytes]";
  }
}
