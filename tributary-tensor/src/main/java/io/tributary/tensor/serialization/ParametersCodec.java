package io.tributary.tensor.serialization;

import io.tributary.tensor.serialization.internal.WireException;
import io.tributary.tensor.serialization.internal.WireReader;
import io.tributary.tensor.serialization.internal.WireWriter;
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
