package io.tributary.tensor.serialization;

import io.tributary.tensor.npy.NpzReader;
import io.tributary.tensor.serialization.internal.WireException;
import io.tributary.tensor.serialization.internal.WireReader;
import io.tributary.tensor.serialization.internal.WireWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes and decodes a whole {@code Parameters} message, as it appears inside Flower's
 * {@code FitIns}, {@code FitRes} and {@code GetParametersRes}.
 *
 * <p>Field 1 ({@code tensors}) and 2 ({@code tensor_type}) are Flower's; field 3 ({@code values})
 * is FEP-0002's, which Flower peers skip. Values are carried as opaque encoded {@code Value}
 * messages here; a {@link Serializer} checks them. Unknown fields are skipped, as protobuf
 * requires.
 */
public final class ParametersCodec {
  private static final int TENSORS = 1;
  private static final int TENSOR_TYPE = 2;
  private static final int VALUES = 3;

  private ParametersCodec() {}

  /**
   * The encoded message, fields in number order as protobuf writes them.
   *
   * @throws SerializationException if the message would exceed the 2 GiB limit of protobuf
   */
  public static byte[] encode(Parameters parameters) throws SerializationException {
    byte[] type = parameters.tensorType().getBytes(StandardCharsets.UTF_8);
    long size = type.length == 0 ? 0 : WireWriter.lengthDelimitedSize(TENSOR_TYPE, type.length);
    for (byte[] t : parameters.tensors()) {
      size += WireWriter.lengthDelimitedSize(TENSORS, t.length);
    }
    for (byte[] v : parameters.values()) {
      size += WireWriter.lengthDelimitedSize(VALUES, v.length);
    }
    WireWriter w;
    try {
      w = new WireWriter(size, parameters.toString());
    } catch (WireException e) {
      throw new SerializationException(e.getMessage(), e);
    }
    for (byte[] t : parameters.tensors()) {
      writeField(w, TENSORS, t);
    }
    if (type.length > 0) {
      writeField(w, TENSOR_TYPE, type);
    }
    for (byte[] v : parameters.values()) {
      writeField(w, VALUES, v);
    }
    return w.finish();
  }

  /**
   * Writes to {@code out} the message {@code encode(new NumpyNdarraySerializer().serializeNamed(
   * Npz.read(file)))} would return for the archive {@code npz} reads, byte for byte, streaming:
   * each array's NPY goes straight from the archive into its field 1 (tag, length, then the
   * bytes as {@link NpzReader#transferTo} copies them), and field 2 follows, so at most one
   * array (and, for the arrays {@code np.savez} writes, only a 1 MiB buffer of it) is in memory
   * at a time. The message's size is checked against protobuf's limit before anything is written.
   * Does not close or flush {@code out}.
   *
   * @throws SerializationException when the message would exceed protobuf's 2 GiB, with
   *     {@link #encode}'s message
   * @throws io.tributary.tensor.npy.NpyException naming the archive and the entry when the
   *     archive's data is malformed
   * @throws IOException when {@code out} fails
   */
  public static void writeNumpyNdarray(NpzReader npz, OutputStream out) throws IOException {
    byte[] type = NumpyNdarraySerializer.TENSOR_TYPE.getBytes(StandardCharsets.UTF_8);
    long payload = 0;
    long size = WireWriter.lengthDelimitedSize(TENSOR_TYPE, type.length);
    for (long n : npz.npyLengths()) {
      payload += n;
      size += WireWriter.lengthDelimitedSize(TENSORS, n);
    }
    try {
      WireWriter.checkSize(size, Parameters.summary(NumpyNdarraySerializer.TENSOR_TYPE, npz.size(), 0, payload));
    } catch (WireException e) {
      throw new SerializationException(e.getMessage(), e);
    }
    byte[] head = new byte[16];
    npz.transferTo((index, name, length) -> {
      out.write(head, 0, lengthDelimitedHead(head, TENSORS, length));
      return out;
    });
    out.write(head, 0, lengthDelimitedHead(head, TENSOR_TYPE, type.length));
    out.write(type);
  }

  /** Puts the tag and length of a length-delimited field into {@code head}; returns their size. */
  private static int lengthDelimitedHead(byte[] head, int field, long length) {
    int at = putVarint(head, 0, ((long) field << 3) | WireReader.LEN);
    return putVarint(head, at, length);
  }

  private static int putVarint(byte[] buf, int at, long v) {
    while ((v & ~0x7FL) != 0) {
      buf[at++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[at++] = (byte) v;
    return at;
  }

  private static void writeField(WireWriter w, int field, byte[] payload) {
    w.writeTag(field, WireReader.LEN);
    w.writeVarint(payload.length);
    w.writeBytes(payload, 0, payload.length);
  }

  /** Decodes a whole array as one {@code Parameters} message. */
  public static Parameters decode(byte[] message) throws SerializationException {
    return decode(message, 0, message.length);
  }

  /**
   * Decodes the {@code Parameters} message in {@code buf[off, off + len)}.
   *
   * @throws SerializationException naming the problem and its offset: a truncated or invalid
   *     varint, tag or length, a known field with the wrong wire type, or a tensor_type that is
   *     not UTF-8
   */
  public static Parameters decode(byte[] buf, int off, int len) throws SerializationException {
    try {
      WireReader r = new WireReader(buf, off, len);
      List<byte[]> tensors = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      String tensorType = "";
      while (r.hasMore()) {
        int tagAt = r.position();
        int tag = r.readTag();
        int field = tag >>> 3;
        if (field != TENSORS && field != TENSOR_TYPE && field != VALUES) {
          r.skipField(tag);
          continue;
        }
        String name = field == TENSORS ? "tensors" : field == TENSOR_TYPE ? "tensor_type" : "values";
        if ((tag & 7) != WireReader.LEN) {
          throw new WireException("wrong wire type " + (tag & 7) + " for field " + field + " ("
              + name + "), expected " + WireReader.LEN, r.offsetOf(tagAt));
        }
        int n = r.readLength(name);
        int at = r.position();
        r.skipBytes(n, name);
        if (field == TENSOR_TYPE) {
          tensorType = r.utf8(at, n, "tensor_type");
        } else {
          byte[] payload = Arrays.copyOfRange(buf, at, at + n);
          (field == TENSORS ? tensors : values).add(payload);
        }
      }
      return new Parameters(tensors, tensorType, values);
    } catch (WireException e) {
      throw new SerializationException("malformed Parameters: " + e.getMessage(), e);
    }
  }
}
