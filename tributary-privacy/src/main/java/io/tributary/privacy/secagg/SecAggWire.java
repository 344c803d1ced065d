package io.tributary.privacy.secagg;

import io.tributary.privacy.secagg.SecAggException.Reason;
import io.tributary.privacy.secagg.SecAggMessage.AdvertiseKeys;
import io.tributary.privacy.secagg.SecAggMessage.EncryptedShares;
import io.tributary.privacy.secagg.SecAggMessage.KeyDirectory;
import io.tributary.privacy.secagg.SecAggMessage.MaskedInput;
import io.tributary.privacy.secagg.SecAggMessage.ShareKeys;
import io.tributary.privacy.secagg.SecAggMessage.UnmaskRequest;
import io.tributary.privacy.secagg.SecAggMessage.UnmaskShares;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * A compact binary encoding of {@link SecAggMessage}s, for carrying them in another protocol's
 * byte fields (such as a Flower config or parameters entry).
 *
 * <p>Layout: the magic byte {@code 'S'}, the version {@code 2} (version 1 had no self-mask commitment), a tag per message type, then the
 * fields big-endian: ints as 4 bytes, longs as 8, an array as a 4-byte count followed by its
 * elements, a byte string as a 4-byte length followed by its bytes. Decoding checks every count
 * against the bytes that remain before allocating anything, so a hostile count cannot make it
 * allocate more than the message's own size, and refuses trailing bytes.
 */
public final class SecAggWire {
  private static final byte MAGIC = 'S';
  private static final byte VERSION = 2;

  private SecAggWire() {}

  /** The encoding of {@code message}. */
  public static byte[] encode(SecAggMessage message) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(MAGIC);
      out.writeByte(VERSION);
      switch (message) {
        case AdvertiseKeys m -> {
          out.writeByte(1);
          out.writeInt(m.client());
          bytes(out, m.encryptionKey());
          bytes(out, m.maskingKey());
        }
        case KeyDirectory m -> {
          out.writeByte(2);
          out.writeInt(m.client());
          ints(out, m.neighbours());
          byteArrays(out, m.encryptionKeys());
          byteArrays(out, m.maskingKeys());
        }
        case ShareKeys m -> {
          out.writeByte(3);
          out.writeInt(m.client());
          ints(out, m.recipients());
          byteArrays(out, m.ciphertexts());
          bytes(out, m.selfMaskCommitment());
        }
        case EncryptedShares m -> {
          out.writeByte(4);
          out.writeInt(m.client());
          ints(out, m.senders());
          byteArrays(out, m.ciphertexts());
        }
        case MaskedInput m -> {
          out.writeByte(5);
          out.writeInt(m.client());
          out.writeInt(m.masked().length);
          for (long v : m.masked()) {
            out.writeLong(v);
          }
        }
        case UnmaskRequest m -> {
          out.writeByte(6);
          out.writeInt(m.client());
          ints(out, m.dropped());
          ints(out, m.survivors());
        }
        case UnmaskShares m -> {
          out.writeByte(7);
          out.writeInt(m.client());
          ints(out, m.maskingKeyOwners());
          byteArrays(out, m.maskingKeyShares());
          ints(out, m.selfMaskOwners());
          byteArrays(out, m.selfMaskShares());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
    return bytes.toByteArray();
  }

  /**
   * The message {@code data} encodes.
   *
   * @throws SecAggException ({@link Reason#MALFORMED_MESSAGE}) when it is not a well-formed
   *     message: wrong magic or version, unknown tag, a count beyond the data, trailing bytes, or
   *     fields the message's record refuses
   */
  public static SecAggMessage decode(byte[] data) {
    ByteBuffer in = ByteBuffer.wrap(data);
    try {
      if (in.get() != MAGIC || in.get() != VERSION) {
        throw malformed("not a SecAgg+ message of version " + VERSION);
      }
      byte tag = in.get();
      int client = in.getInt();
      SecAggMessage m = switch (tag) {
        case 1 -> new AdvertiseKeys(client, bytes(in), bytes(in));
        case 2 -> new KeyDirectory(client, ints(in), byteArrays(in), byteArrays(in));
        case 3 -> new ShareKeys(client, ints(in), byteArrays(in), bytes(in));
        case 4 -> new EncryptedShares(client, ints(in), byteArrays(in));
        case 5 -> {
          int n = count(in, Long.BYTES);
          long[] v = new long[n];
          for (int i = 0; i < n; i++) {
            v[i] = in.getLong();
          }
          yield new MaskedInput(client, v);
        }
        case 6 -> new UnmaskRequest(client, ints(in), ints(in));
        case 7 -> new UnmaskShares(client, ints(in), byteArrays(in), ints(in), byteArrays(in));
        default -> throw malformed("unknown message tag " + tag);
      };
      if (in.hasRemaining()) {
        throw malformed(in.remaining() + " bytes after the message");
      }
      return m;
    } catch (BufferUnderflowException e) {
      throw malformed("the message ends early");
    } catch (IllegalArgumentException e) {
      throw malformed(e.getMessage());
    }
  }

  private static SecAggException malformed(String why) {
    return new SecAggException(Reason.MALFORMED_MESSAGE, "a malformed SecAgg+ message: " + why);
  }

  /** A count of elements of at least {@code minBytes} each, checked against what remains. */
  private static int count(ByteBuffer in, int minBytes) {
    int n = in.getInt();
    if (n < 0 || (long) n * minBytes > in.remaining()) {
      throw malformed("a count of " + n + " with " + in.remaining() + " bytes left");
    }
    return n;
  }

  private static byte[] bytes(ByteBuffer in) {
    byte[] b = new byte[count(in, 1)];
    in.get(b);
    return b;
  }

  private static int[] ints(ByteBuffer in) {
    int[] v = new int[count(in, Integer.BYTES)];
    for (int i = 0; i < v.length; i++) {
      v[i] = in.getInt();
    }
    return v;
  }

  private static byte[][] byteArrays(ByteBuffer in) {
    byte[][] v = new byte[count(in, Integer.BYTES)][];
    for (int i = 0; i < v.length; i++) {
      v[i] = bytes(in);
    }
    return v;
  }

  private static void bytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  private static void ints(DataOutputStream out, int[] v) throws IOException {
    out.writeInt(v.length);
    for (int x : v) {
      out.writeInt(x);
    }
  }

  private static void byteArrays(DataOutputStream out, byte[][] v) throws IOException {
    out.writeInt(v.length);
    for (byte[] b : v) {
      bytes(out, b);
    }
  }
}
