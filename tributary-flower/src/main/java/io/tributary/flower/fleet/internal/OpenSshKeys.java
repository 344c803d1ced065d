package io.tributary.flower.fleet.internal;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;
import java.util.Base64;

/**
 * Reads ECDSA keys in OpenSSH's formats, the ones {@code ssh-keygen -t ecdsa} writes and Flower's
 * {@code flower-supernode --auth-supernode-private-key} reads: a public key line
 * ({@code ecdsa-sha2-nistp384 BASE64 comment}) and an unencrypted {@code openssh-key-v1} private
 * key ({@code -----BEGIN OPENSSH PRIVATE KEY-----}).
 *
 * <p>Both are sequences of length-prefixed fields (RFC 4251's {@code string}, {@code uint32} and
 * {@code mpint}; the private key's layout is OpenSSH's {@code PROTOCOL.key}). Every length is
 * checked against what is left before it is used, the point must be uncompressed and on the named
 * curve, and the private key's scalar must sign what its public key verifies; the key objects are
 * the JDK's, made by {@link KeyFactory} from {@link ECPublicKeySpec} and {@link ECPrivateKeySpec}.
 * Problems are thrown as {@link InvalidKeySpecException} whose message says what is wrong.
 */
public final class OpenSshKeys {
  /** The most bytes of a key file this reads: OpenSSH's EC keys are well under 1 KiB. */
  public static final int MAX_BYTES = 64 * 1024;

  private static final String PRIVATE_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----";
  private static final String PRIVATE_END = "-----END OPENSSH PRIVATE KEY-----";
  private static final byte[] MAGIC = "openssh-key-v1\0".getBytes(StandardCharsets.US_ASCII);

  private OpenSshKeys() {}

  /** Whether {@code text} looks like an OpenSSH private key file (its BEGIN line). */
  public static boolean isPrivateKey(String text) {
    return text.contains(PRIVATE_BEGIN);
  }

  /** Whether {@code text} looks like an OpenSSH ECDSA public key line. */
  public static boolean isPublicKey(String text) {
    return text.stripLeading().startsWith("ecdsa-sha2-");
  }

  /** The public key of an OpenSSH public key line ({@code ecdsa-sha2-nistpN BASE64 [comment]}). */
  public static ECPublicKey publicKey(String text) throws InvalidKeySpecException {
    String line = text.strip();
    if (line.contains("\n")) {
      throw new InvalidKeySpecException("holds more than one line; an OpenSSH public key file "
          + "holds one 'ecdsa-sha2-nistpN BASE64 comment' line");
    }
    String[] fields = line.split("\\s+", 3);
    if (fields.length < 2) {
      throw new InvalidKeySpecException("is not an OpenSSH public key line "
          + "('ecdsa-sha2-nistpN BASE64 comment'): it has no base64 field");
    }
    Reader blob = new Reader(base64(fields[1], "the public key"));
    ECPublicKey key = publicBlob(blob, "the public key");
    blob.end("the public key");
    String type = "ecdsa-sha2-" + curveName(key);
    if (!fields[0].equals(type)) {
      throw new InvalidKeySpecException("names its key type '" + fields[0]
          + "' but its base64 holds a " + type + " key");
    }
    return key;
  }

  /**
   * The key pair in an unencrypted OpenSSH private key file: the public key is the one the file
   * holds, as Flower derives it, checked against the private scalar.
   */
  public static KeyPair privateKey(String text) throws InvalidKeySpecException {
    int b = text.indexOf(PRIVATE_BEGIN);
    int e = text.indexOf(PRIVATE_END);
    if (b < 0 || e < b) {
      throw new InvalidKeySpecException("is not an OpenSSH private key (no '" + PRIVATE_BEGIN
          + "' ... '" + PRIVATE_END + "' block)");
    }
    Reader r = new Reader(base64(text.substring(b + PRIVATE_BEGIN.length(), e), "the key"));
    byte[] magic = r.bytes(MAGIC.length, "the 'openssh-key-v1' magic");
    if (!Arrays.equals(magic, MAGIC)) {
      throw new InvalidKeySpecException("does not start with OpenSSH's 'openssh-key-v1' magic");
    }
    String cipher = r.text("the cipher name");
    String kdf = r.text("the KDF name");
    r.string("the KDF options");
    if (!cipher.equals("none") || !kdf.equals("none")) {
      throw new InvalidKeySpecException("is encrypted (cipher " + cipher + ", KDF " + kdf
          + "); Flower and Tributary read keys without a passphrase: remove it with "
          + "'ssh-keygen -p -N \"\" -f FILE'");
    }
    long count = r.uint32("the number of keys");
    if (count != 1) {
      throw new InvalidKeySpecException("holds " + count + " keys; a SuperNode key file holds one");
    }
    Reader outer = new Reader(r.string("the public key"));
    ECPublicKey declared = publicBlob(outer, "the public key");
    outer.end("the public key");
    Reader p = new Reader(r.string("the private section"));
    r.end("the key file");
    if (p.uint32("the first check number") != p.uint32("the second check number")) {
      throw new InvalidKeySpecException("has check numbers that differ: it is corrupt or was "
          + "decrypted with the wrong passphrase");
    }
    ECPublicKey inner = publicBlob(p, "the private section");
    if (!inner.getW().equals(declared.getW())) {
      throw new InvalidKeySpecException("holds a public key in its private section that is not "
          + "the one in its header");
    }
    BigInteger d = p.mpint("the private scalar");
    p.string("the comment");
    byte[] padding = p.rest();
    if (padding.length >= 8) {
      throw new InvalidKeySpecException("has " + padding.length + " bytes after its key where "
          + "OpenSSH pads to 8 bytes at most");
    }
    for (int i = 0; i < padding.length; i++) {
      if ((padding[i] & 0xff) != i + 1) {
        throw new InvalidKeySpecException("has bad padding after its key (byte " + i + " is "
            + (padding[i] & 0xff) + ", not " + (i + 1) + ")");
      }
    }
    ECParameterSpec params = inner.getParams();
    if (d.signum() <= 0 || d.compareTo(params.getOrder()) >= 0) {
      throw new InvalidKeySpecException("has a private scalar outside 1 .. order - 1 of "
          + curveName(inner));
    }
    try {
      KeyPair pair = new KeyPair(inner, KeyFactory.getInstance("EC")
          .generatePrivate(new ECPrivateKeySpec(d, params)));
      if (!NodeAuth.isPair(pair)) {
        throw new InvalidKeySpecException("holds a private scalar that does not belong to its "
            + "public key");
      }
      return pair;
    } catch (GeneralSecurityException ex) {
      throw new InvalidKeySpecException("holds a private key the JDK refuses: " + ex.getMessage(),
          ex);
    }
  }

  /** {@code nistp256}, {@code nistp384} or {@code nistp521}, from the key's field size. */
  private static String curveName(ECPublicKey key) {
    return "nistp" + key.getParams().getCurve().getField().getFieldSize();
  }

  /** Reads {@code string type, string curve, string Q} and makes the JDK key. */
  private static ECPublicKey publicBlob(Reader r, String where) throws InvalidKeySpecException {
    String type = r.text("the key type in " + where);
    if (!type.startsWith("ecdsa-sha2-")) {
      throw new InvalidKeySpecException("holds a '" + type + "' key; a SuperNode key is ECDSA "
          + "(ecdsa-sha2-nistp256, -nistp384 or -nistp521; 'ssh-keygen -t ecdsa -b 384')");
    }
    String curve = r.text("the curve name in " + where);
    if (!type.equals("ecdsa-sha2-" + curve)) {
      throw new InvalidKeySpecException("names key type '" + type + "' but curve '" + curve + "'");
    }
    ECParameterSpec params = params(curve);
    byte[] q = r.string("the public point in " + where);
    int n = (params.getCurve().getField().getFieldSize() + 7) / 8;
    if (q.length != 1 + 2 * n || q[0] != 4) {
      throw new InvalidKeySpecException("has a public point of " + q.length + " bytes starting "
          + (q.length == 0 ? "with nothing" : "with " + (q[0] & 0xff)) + "; " + curve
          + " needs an uncompressed point: 4 then " + 2 * n + " bytes");
    }
    BigInteger x = new BigInteger(1, Arrays.copyOfRange(q, 1, 1 + n));
    BigInteger y = new BigInteger(1, Arrays.copyOfRange(q, 1 + n, q.length));
    BigInteger p = ((ECFieldFp) params.getCurve().getField()).getP();
    BigInteger lhs = y.multiply(y).mod(p);
    BigInteger rhs = x.pow(3).add(params.getCurve().getA().multiply(x))
        .add(params.getCurve().getB()).mod(p);
    if (x.compareTo(p) >= 0 || y.compareTo(p) >= 0 || !lhs.equals(rhs)) {
      throw new InvalidKeySpecException("has a public point that is not on " + curve);
    }
    try {
      return (ECPublicKey) KeyFactory.getInstance("EC")
          .generatePublic(new ECPublicKeySpec(new ECPoint(x, y), params));
    } catch (GeneralSecurityException e) {
      throw new InvalidKeySpecException("holds a public key the JDK refuses: " + e.getMessage(), e);
    }
  }

  private static ECParameterSpec params(String curve) throws InvalidKeySpecException {
    String std = switch (curve) {
      case "nistp256" -> "secp256r1";
      case "nistp384" -> "secp384r1";
      case "nistp521" -> "secp521r1";
      default -> throw new InvalidKeySpecException("names curve '" + curve
          + "'; OpenSSH's ECDSA curves are nistp256, nistp384 and nistp521");
    };
    try {
      AlgorithmParameters a = AlgorithmParameters.getInstance("EC");
      a.init(new ECGenParameterSpec(std));
      return a.getParameterSpec(ECParameterSpec.class);
    } catch (GeneralSecurityException e) {
      throw new InvalidKeySpecException("names curve " + curve + ", which this JDK lacks", e);
    }
  }

  private static byte[] base64(String text, String what) throws InvalidKeySpecException {
    try {
      return Base64.getMimeDecoder().decode(text.strip());
    } catch (IllegalArgumentException e) {
      throw new InvalidKeySpecException("has invalid base64 in " + what + ": " + e.getMessage());
    }
  }

  /** Length-prefixed fields, each length checked against what is left. */
  private static final class Reader {
    private final byte[] buf;
    private int pos;

    Reader(byte[] buf) {
      this.buf = buf;
    }

    long uint32(String what) throws InvalidKeySpecException {
      byte[] b = bytes(4, what);
      return ((b[0] & 0xffL) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }

    byte[] bytes(int n, String what) throws InvalidKeySpecException {
      if (n > buf.length - pos) {
        throw new InvalidKeySpecException("ends inside " + what + " (needs " + n + " bytes at "
            + pos + ", " + (buf.length - pos) + " left)");
      }
      byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
      pos += n;
      return out;
    }

    byte[] string(String what) throws InvalidKeySpecException {
      long n = uint32("the length of " + what);
      if (n > buf.length - pos) {
        throw new InvalidKeySpecException("gives " + what + " a length of " + n + " bytes at "
            + (pos - 4) + ", but only " + (buf.length - pos) + " are left");
      }
      return bytes((int) n, what);
    }

    String text(String what) throws InvalidKeySpecException {
      byte[] b = string(what);
      for (byte c : b) {
        if (c < 0x20 || c > 0x7e) {
          throw new InvalidKeySpecException("has a non-printable byte in " + what);
        }
      }
      return new String(b, StandardCharsets.US_ASCII);
    }

    BigInteger mpint(String what) throws InvalidKeySpecException {
      byte[] b = string(what);
      if (b.length == 0) {
        return BigInteger.ZERO;
      }
      return new BigInteger(b);
    }

    byte[] rest() {
      byte[] out = Arrays.copyOfRange(buf, pos, buf.length);
      pos = buf.length;
      return out;
    }

    void end(String what) throws InvalidKeySpecException {
      if (pos != buf.length) {
        throw new InvalidKeySpecException("has " + (buf.length - pos) + " bytes after the end of "
            + what);
      }
    }
  }
}
