package io.tributary.privacy.secagg;

import io.tributary.privacy.secagg.internal.Keys;
import io.tributary.privacy.secagg.internal.Protocol;
import io.tributary.privacy.secagg.internal.Shamir;
import java.util.Arrays;
import java.util.Objects;

/**
 * The messages of a SecAgg+ round: plain records of ints, longs and byte arrays, so that they can
 * travel in any envelope (such as Flower's FitIns and FitRes); {@link SecAggWire} encodes them.
 *
 * <p>Each record checks its own shape when built (lengths match, keys are 32 bytes, shares are
 * 66 bytes); what depends on the
 * round (are these the right neighbours?) the receiving state machine checks. The arrays are not
 * copied: a message is handed over, not shared.
 */
public sealed interface SecAggMessage {
  /** The client that sent the message, or the one it is addressed to. */
  int client();

  /**
   * Stage 1, client to server: the client's two X25519 public keys, raw (32 bytes each).
   *
   * @param client the sender
   * @param encryptionKey the key the shares sent to this client are encrypted under (by agreement)
   * @param maskingKey the key the pairwise masks are agreed with
   */
  record AdvertiseKeys(int client, byte[] encryptionKey, byte[] maskingKey)
      implements SecAggMessage {
    public AdvertiseKeys {
      requireClient(client);
      requireKey(encryptionKey, "the encryption key");
      requireKey(maskingKey, "the masking key");
    }
  }

  /**
   * Stage 1, server to client: the advertised keys of the client's neighbours that took part.
   *
   * @param client the recipient
   * @param neighbours the neighbours, ascending
   * @param encryptionKeys their encryption keys, in the same order
   * @param maskingKeys their masking keys, in the same order
   */
  record KeyDirectory(int client, int[] neighbours, byte[][] encryptionKeys,
      byte[][] maskingKeys) implements SecAggMessage {
    public KeyDirectory {
      requireClient(client);
      requireAscending(neighbours);
      requireSameLength(neighbours, encryptionKeys.length, maskingKeys.length);
      for (int i = 0; i < neighbours.length; i++) {
        requireKey(encryptionKeys[i], "an encryption key");
        requireKey(maskingKeys[i], "a masking key");
      }
    }
  }

  /**
   * Stage 2, client to server: the client's shares for each neighbour, encrypted for it.
   *
   * @param client the sender
   * @param recipients the neighbours, ascending
   * @param ciphertexts the AES-GCM ciphertexts, in the same order
   * @param selfMaskCommitment the client's commitment to its self-mask seed (32 bytes), which
   *     the server checks the recovered seed against
   */
  record ShareKeys(int client, int[] recipients, byte[][] ciphertexts,
      byte[] selfMaskCommitment) implements SecAggMessage {
    public ShareKeys {
      requireClient(client);
      requireAscending(recipients);
      requireSameLength(recipients, ciphertexts.length);
      for (byte[] c : ciphertexts) {
        Objects.requireNonNull(c, "a ciphertext");
      }
      if (selfMaskCommitment == null || selfMaskCommitment.length != Protocol.COMMITMENT_BYTES) {
        throw new IllegalArgumentException("a self-mask commitment must be "
            + Protocol.COMMITMENT_BYTES + " bytes, got " + (selfMaskCommitment == null ? "none"
            : selfMaskCommitment.length));
      }
    }
  }

  /**
   * Stage 2, server to client: the ciphertexts addressed to the client.
   *
   * @param client the recipient
   * @param senders the neighbours that sent shares, ascending
   * @param ciphertexts their ciphertexts, in the same order
   */
  record EncryptedShares(int client, int[] senders, byte[][] ciphertexts)
      implements SecAggMessage {
    public EncryptedShares {
      requireClient(client);
      requireAscending(senders);
      requireSameLength(senders, ciphertexts.length);
      for (byte[] c : ciphertexts) {
        Objects.requireNonNull(c, "a ciphertext");
      }
    }
  }

  /**
   * Stage 3, client to server: the client's input plus its masks, modulo the protocol's modulus.
   *
   * @param client the sender
   * @param masked the masked vector
   */
  record MaskedInput(int client, long[] masked) implements SecAggMessage {
    public MaskedInput {
      requireClient(client);
      Objects.requireNonNull(masked, "masked");
    }
  }

  /**
   * Stage 3, server to client: who dropped out after sharing, and who sent a masked input.
   *
   * @param client the recipient
   * @param dropped the clients whose pairwise masks must be removed, ascending
   * @param survivors the clients whose self masks must be removed, ascending
   */
  record UnmaskRequest(int client, int[] dropped, int[] survivors) implements SecAggMessage {
    public UnmaskRequest {
      requireClient(client);
      requireAscending(dropped);
      requireAscending(survivors);
    }
  }

  /**
   * Stage 4, client to server: the shares it holds of the dropped clients' masking keys and of
   * the survivors' self-mask seeds; never both for one client.
   *
   * @param client the sender
   * @param maskingKeyOwners the dropped clients whose masking-key shares follow, ascending
   * @param maskingKeyShares those shares, in the same order
   * @param selfMaskOwners the surviving clients whose self-mask shares follow, ascending
   * @param selfMaskShares those shares, in the same order
   */
  record UnmaskShares(int client, int[] maskingKeyOwners, byte[][] maskingKeyShares,
      int[] selfMaskOwners, byte[][] selfMaskShares) implements SecAggMessage {
    public UnmaskShares {
      requireClient(client);
      requireAscending(maskingKeyOwners);
      requireAscending(selfMaskOwners);
      requireSameLength(maskingKeyOwners, maskingKeyShares.length);
      requireSameLength(selfMaskOwners, selfMaskShares.length);
      for (byte[] s : maskingKeyShares) {
        requireShare(s);
      }
      for (byte[] s : selfMaskShares) {
        requireShare(s);
      }
    }
  }

  private static void requireClient(int client) {
    if (client < 0) {
      throw new IllegalArgumentException("a client id is non-negative, got " + client);
    }
  }

  private static void requireKey(byte[] key, String what) {
    if (key == null || key.length != Keys.LENGTH) {
      throw new IllegalArgumentException(what + " must be " + Keys.LENGTH + " bytes, got "
          + (key == null ? "none" : key.length));
    }
  }

  private static void requireShare(byte[] share) {
    if (share == null || share.length != Shamir.SHARE_BYTES) {
      throw new IllegalArgumentException("a share must be " + Shamir.SHARE_BYTES + " bytes, got "
          + (share == null ? "none" : share.length));
    }
  }

  private static void requireAscending(int[] ids) {
    for (int i = 0; i < ids.length; i++) {
      if (ids[i] < 0 || (i > 0 && ids[i] <= ids[i - 1])) {
        throw new IllegalArgumentException("client ids must be ascending and non-negative: "
            + Arrays.toString(ids));
      }
    }
  }

  private static void requireSameLength(int[] ids, int... lengths) {
    for (int l : lengths) {
      if (l != ids.length) {
        throw new IllegalArgumentException(ids.length + " clients but " + l + " entries");
      }
    }
  }
}
