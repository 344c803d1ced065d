package io.tributary.flower.secaggplus.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Flower's {@code share_keys_plaintext_concat}: source and destination node ids (8 bytes each),
 * the length of the mask-seed share (4 bytes), that share and the key share, little-endian.
 */
public record SharePlaintext(long src, long dst, byte[] seedShare, byte[] keyShare) {
  /** The plaintext's bytes. */
  public byte[] encode() {
    return ByteBuffer.allocate(20 + seedShare.length + keyShare.length)
        .order(ByteOrder.LITTLE_ENDIAN).putLong(src).putLong(dst).putInt(seedShare.length)
        .put(seedShare).put(keyShare).array();
  }

  /** The fields of a decrypted plaintext. */
  public static SharePlaintext decode(byte[] b) throws SecAggPlusException {
    if (b.length < 20) {
      throw new SecAggPlusException("a key-share plaintext of " + b.length + " bytes");
    }
    ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    long src = buf.getLong();
    long dst = buf.getLong();
    long mark = Integer.toUnsignedLong(buf.getInt());
    if (mark > b.length - 20) {
      throw new SecAggPlusException("a key-share plaintext claims a " + mark
          + "-byte share in " + (b.length - 20) + " bytes");
    }
    int end = 20 + (int) mark;
    return new SharePlaintext(src, dst, Arrays.copyOfRange(b, 20, end),
        Arrays.copyOfRange(b, end, b.length));
  }
}
