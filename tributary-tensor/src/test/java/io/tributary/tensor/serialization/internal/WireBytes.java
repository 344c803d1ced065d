package io.tributary.tensor.serialization.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Builds protobuf bytes by hand, including malformed ones, for codec tests. */
final class WireBytes {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  static WireBytes message() {
    return new WireBytes();
  }

  WireBytes varint(long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
    return this;
  }

  WireBytes tag(int field, int wireType) {
    return varint(((long) field << 3) | wireType);
  }

  WireBytes raw(int... bytes) {
    for (int b : bytes) {
      out.write(b);
    }
    return this;
  }

  WireBytes bytes(byte[] b) {
    out.writeBytes(b);
    return this;
  }

  /** A varint field. */
  WireBytes varintField(int field, long v) {
    return tag(field, WireReader.VARINT).varint(v);
  }

  /** A length-delimited field holding {@code payload}. */
  WireBytes lenField(int field, byte[] payload) {
    return tag(field, WireReader.LEN).varint(payload.length).bytes(payload);
  }

  WireBytes stringField(int field, String s) {
    return lenField(field, s.getBytes(StandardCharsets.UTF_8));
  }

  /** Field 16 packed with these dimensions. */
  WireBytes shape(long... dims) {
    WireBytes p = message();
    for (long d : dims) {
      p.varint(d);
    }
    return lenField(16, p.build());
  }

  /** Packed little-endian floats in field 3. */
  WireBytes floats(float... v) {
    WireBytes p = message();
    for (float f : v) {
      p.fixed32(Float.floatToRawIntBits(f));
    }
    return lenField(3, p.build());
  }

  WireBytes fixed32(int v) {
    return raw(v & 0xFF, (v >>> 8) & 0xFF, (v >>> 16) & 0xFF, v >>> 24);
  }

  WireBytes fixed64(long v) {
    fixed32((int) v);
    return fixed32((int) (v >>> 32));
  }

  byte[] build() {
    return out.toByteArray();
  }
}
