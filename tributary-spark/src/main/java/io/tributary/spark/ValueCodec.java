package io.tributary.spark;

import io.tributary.core.values.StructValue;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A pass's server argument (the state for {@code next}, the model for {@code evaluate}) as bytes
 * for the workers: a tree of named structs whose leaves are numeric tensors, every tensor's bytes
 * as they are, so the worker's argument has the driver's bits. Nothing else crosses the wire:
 * Tributary objects are never Java-serialized.
 */
final class ValueCodec {
  private static final byte TENSOR = 0;
  private static final byte STRUCT = 1;

  private ValueCodec() {}

  /**
   * Encodes {@code value}, a {@link StructValue} or a {@link Tensor}.
   *
   * @throws IllegalArgumentException naming a value that cannot be sent (a string tensor, or
   *     anything but structs and tensors)
   */
  static byte[] encode(Object value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      write(out, value, "the server argument");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * Decodes what {@link #encode} wrote.
   *
   * @throws IllegalArgumentException when the bytes are not such an encoding
   */
  static Object decode(byte[] encoded) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
      return read(in);
    } catch (IOException e) {
      throw new IllegalArgumentException("a truncated server argument: " + e.getMessage(), e);
    }
  }

  private static void write(DataOutputStream out, Object value, String where)
      throws IOException {
    switch (value) {
      case Tensor t -> {
        if (t.dtype() == DType.STRING) {
          throw new IllegalArgumentException(where + " is a string tensor, which a cluster "
              + "engine does not send");
        }
        out.writeByte(TENSOR);
        out.writeUTF(t.dtype().name());
        long[] dims = t.shape().dims();
        out.writeInt(dims.length);
        for (long d : dims) {
          out.writeLong(d);
        }
        byte[] data = new byte[Math.toIntExact(t.byteSize())];
        t.copyBytes(0, data, 0, data.length);
        out.writeInt(data.length);
        out.write(data);
      }
      case StructValue s -> {
        out.writeByte(STRUCT);
        out.writeInt(s.size());
        for (int i = 0; i < s.size(); i++) {
          Optional<String> name = s.names().get(i);
          out.writeBoolean(name.isPresent());
          if (name.isPresent()) {
            out.writeUTF(name.get());
          }
          write(out, s.values().get(i), where + "." + name.orElse(Integer.toString(i)));
        }
      }
      default -> throw new IllegalArgumentException(where + " is a "
          + value.getClass().getSimpleName() + ", which a cluster engine does not send");
    }
  }

  private static Object read(DataInputStream in) throws IOException {
    byte tag = in.readByte();
    if (tag == TENSOR) {
      DType dtype = DType.valueOf(in.readUTF());
      long[] dims = new long[in.readInt()];
      for (int i = 0; i < dims.length; i++) {
        dims[i] = in.readLong();
      }
      byte[] data = new byte[in.readInt()];
      in.readFully(data);
      return Tensor.fromLittleEndian(dtype, Shape.of(dims), data);
    }
    if (tag == STRUCT) {
      int n = in.readInt();
      List<Optional<String>> names = new ArrayList<>(n);
      List<Object> values = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        names.add(in.readBoolean() ? Optional.of(in.readUTF()) : Optional.empty());
        values.add(read(in));
      }
      return StructValue.of(names, values);
    }
    throw new IllegalArgumentException("unknown value tag " + tag);
  }
}
