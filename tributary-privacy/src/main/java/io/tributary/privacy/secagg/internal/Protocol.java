package io.tributary.privacy.secagg.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.PrivateKey;
import java.security.PublicKey;

/**
 * The derivations client and server share: the keys agreed between two clients, the associated
 * data and plaintext layout of an encrypted share.
 */
public final class Protocol {
  private static final String VERSION = "tributary secagg+ v1 ";
  private static final byte[] AAD_LABEL = (VERSION + "share").getBytes(StandardCharsets.UTF_8);
  /** The length of a share plaintext: sender, recipient, two shares. */
  public static final int PLAINTEXT_BYTES = 8 + 2 * Shamir.SHARE_BYTES;

  private Protocol() {}

  /** The salt of every derivation: the round's public graph seed. */
  public static byte[] salt(long graphSeed) {
    return ByteBuffer.allocate(8).putLong(graphSeed).array();
  }

  /** The AES-256 key under which {@code sender} encrypts its shares for a neighbour. */
  public static byte[] shareKey(PrivateKey own, PublicKey other, long graphSeed)
      throws InvalidKeyException {
    return Keys.derive(Keys.agree(own, other), salt(graphSeed), VERSION + "share encryption",
        Keys.LENGTH);
  }

  /** The seed of the pairwise mask between two clients (the same from either side). */
  public static byte[] pairwiseSeed(PrivateKey own, PublicKey other, long graphSeed)
      throws InvalidKeyException {
    return Keys.derive(Keys.agree(own, other), salt(graphSeed), VERSION + "pairwise mask",
        Keys.LENGTH);
  }

  /** The associated data binding a ciphertext to its sender and recipient. */
  public static byte[] aad(int sender, int recipient) {
    return ByteBuffer.allocate(AAD_LABEL.length + 8).put(AAD_LABEL).putInt(sender)
        .putInt(recipient).array();
  }

  /** The plaintext of an encrypted share. */
  public static byte[] plaintext(int sender, int recipient, byte[] selfMaskShare,
      byte[] maskingKeyShare) {
    return ByteBuffer.allocate(PLAINTEXT_BYTES).putInt(sender).putInt(recipient)
        .put(selfMaskShare).put(maskingKeyShare).array();
  }

  /** A decrypted share plaintext. */
  public record SharePlaintext(int sender, int recipient, byte[] selfMaskShare,
      byte[] maskingKeyShare) {
    /**
     * Reads a plaintext.
     *
     * @throws IllegalArgumentException when it is not {@link #PLAINTEXT_BYTES} long
     */
    public static SharePlaintext read(byte[] p) {
      if (p.length != PLAINTEXT_BYTES) {
        throw new IllegalArgumentException("a share plaintext is " + PLAINTEXT_BYTES
            + " bytes, got " + p.length);
      }
      ByteBuffer b = ByteBuffer.wrap(p);
      int s = b.getInt();
      int r = b.getInt();
      byte[] self = new byte[Shamir.SHARE_BYTES];
      byte[] key = new byte[Shamir.SHARE_BYTES];
      b.get(self).get(key);
      return new SharePlaintext(s, r, self, key);
    }
  }

  /** The x-coordinate of the shares held by {@code client}. */
  public static int sharePoint(int client) {
    return client + 1;
  }
}
