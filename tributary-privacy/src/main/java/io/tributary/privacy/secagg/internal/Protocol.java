package io.tributary.privacy.secagg.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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

  /** The length of a self-mask commitment: a SHA-256 digest. */
  public static final int COMMITMENT_BYTES = 32;

  /**
   * The commitment to {@code client}'s self-mask seed that it sends with its shares: SHA-256 of
   * a label, the round's graph seed, the client's id and the seed. The server checks the seed it
   * recovers against it, so a neighbour that forges its share cannot move the recovered seed;
   * the seed is 256 random bits, so the digest reveals nothing usable about it.
   */
  public static byte[] selfMaskCommitment(long graphSeed, int client, byte[] seed) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update((VERSION + "self-mask commitment").getBytes(StandardCharsets.UTF_8));
      sha.update(ByteBuffer.allocate(12).putLong(graphSeed).putInt(client).array());
      sha.update(seed);
      return sha.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** The x-coordinate of the shares held by {@code client}. */
  public static int sharePoint(int client) {
    return client + 1;
  }
}
