package io.tributary.privacy.secagg;

import io.tributary.privacy.secagg.SecAggException.Reason;
import io.tributary.privacy.secagg.SecAggMessage.AdvertiseKeys;
import io.tributary.privacy.secagg.SecAggMessage.EncryptedShares;
import io.tributary.privacy.secagg.SecAggMessage.KeyDirectory;
import io.tributary.privacy.secagg.SecAggMessage.MaskedInput;
import io.tributary.privacy.secagg.SecAggMessage.ShareKeys;
import io.tributary.privacy.secagg.SecAggMessage.UnmaskRequest;
import io.tributary.privacy.secagg.SecAggMessage.UnmaskShares;
import io.tributary.privacy.secagg.internal.CommunicationGraph;
import io.tributary.privacy.secagg.internal.Keys;
import io.tributary.privacy.secagg.internal.MaskGenerator;
import io.tributary.privacy.secagg.internal.Protocol;
import io.tributary.privacy.secagg.internal.Shamir;
import io.tributary.privacy.secagg.internal.ShareCipher;
import java.security.InvalidKeyException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.AEADBadTagException;

/**
 * One client of a SecAgg+ round, as a state machine that answers one server message per stage:
 * {@link #advertiseKeys()}, {@link #shareKeys}, {@link #maskedInput}, {@link #unmask}.
 *
 * <p>Calling a stage out of order, or a second time, is a {@link Reason#PROTOCOL_VIOLATION}; a
 * failed call leaves the client failed. The client checks what the server sends against the
 * public communication graph (only its neighbours' keys and shares are accepted), and answers an
 * unmask request at most once, never revealing both kinds of share of one client.
 *
 * <p>Not thread-safe: one round, driven by one thread at a time.
 */
public final class SecAggClient {
  private final int id;
  private final int clients;
  private final SecAggSettings settings;
  private final CommunicationGraph graph;
  private final SecureRandom random;
  private final int modulusBits;
  private SecAggStage next = SecAggStage.ADVERTISE_KEYS;
  private boolean failed;
  private KeyPair encryption;
  private KeyPair masking;
  private byte[] selfMaskSeed;
  private final Map<Integer, PublicKey> neighbourEncryptionKeys = new TreeMap<>();
  private final Map<Integer, PublicKey> neighbourMaskingKeys = new TreeMap<>();
  /** Shares held for each neighbour that sent them: {self-mask share, masking-key share}. */
  private final Map<Integer, byte[][]> held = new TreeMap<>();

  /**
   * Client {@code id} of a round of {@code clients} clients.
   *
   * @param settings the round's settings, as {@link SecAggSettings#forClients} adapted them
   */
  public SecAggClient(int id, int clients, SecAggSettings settings) {
    if (id < 0 || id >= clients) {
      throw new IllegalArgumentException("client " + id + " of " + clients);
    }
    this.id = id;
    this.clients = clients;
    this.settings = settings;
    this.graph = CommunicationGraph.harary(clients, settings.neighbours(), settings.graphSeed());
    this.random = settings.randomness().generator("client", id);
    this.modulusBits = settings.modulusBits(clients);
  }

  /** This client's id. */
  public int id() {
    return id;
  }

  /** The stage whose message this client answers next. */
  public SecAggStage next() {
    return next;
  }

  /** Stage 1: draws the two key pairs and advertises their public halves. */
  public AdvertiseKeys advertiseKeys() {
    enter(SecAggStage.ADVERTISE_KEYS);
    encryption = Keys.generate(random);
    masking = Keys.generate(random);
    next = SecAggStage.SHARE_KEYS;
    return new AdvertiseKeys(id, Keys.encode(encryption.getPublic()),
        Keys.encode(masking.getPublic()));
  }

  /**
   * Stage 2: draws the self-mask seed, splits it and the masking key into {@code t}-out-of-k
   * Shamir shares, encrypts each neighbour's pair under the key agreed with it, and commits to
   * the seed ({@link ShareKeys#selfMaskCommitment}).
   *
   * @throws SecAggException when the directory names a non-neighbour or a bad key, or holds fewer
   *     than the threshold of neighbours
   */
  public ShareKeys shareKeys(KeyDirectory directory) {
    enter(SecAggStage.SHARE_KEYS);
    try {
      requireAddressed(directory.client());
      int[] ns = directory.neighbours();
      if (ns.length < settings.threshold()) {
        throw new SecAggException(Reason.TOO_FEW_SURVIVORS, id, "client " + id + " has "
            + ns.length + " neighbours left, fewer than the threshold " + settings.threshold());
      }
      for (int i = 0; i < ns.length; i++) {
        if (ns[i] >= clients || !graph.adjacent(id, ns[i])) {
          throw new SecAggException(Reason.PROTOCOL_VIOLATION, ns[i], "client " + ns[i]
              + " is not a neighbour of client " + id);
        }
        neighbourEncryptionKeys.put(ns[i], decode(directory.encryptionKeys()[i], ns[i]));
        neighbourMaskingKeys.put(ns[i], decode(directory.maskingKeys()[i], ns[i]));
      }
      selfMaskSeed = new byte[Keys.LENGTH];
      random.nextBytes(selfMaskSeed);
      int[] xs = Arrays.stream(ns).map(Protocol::sharePoint).toArray();
      byte[][] selfShares = Shamir.split(selfMaskSeed, settings.threshold(), xs, random);
      byte[][] keyShares = Shamir.split(Keys.encode(masking.getPrivate()), settings.threshold(),
          xs, random);
      byte[][] ciphertexts = new byte[ns.length][];
      for (int i = 0; i < ns.length; i++) {
        byte[] key = agreeShareKey(ns[i]);
        ciphertexts[i] = ShareCipher.encrypt(key,
            Protocol.plaintext(id, ns[i], selfShares[i], keyShares[i]),
            Protocol.aad(id, ns[i]), random);
      }
      next = SecAggStage.MASKED_INPUT;
      return new ShareKeys(id, ns, ciphertexts,
          Protocol.selfMaskCommitment(settings.graphSeed(), id, selfMaskSeed));
    } catch (SecAggException e) {
      failed = true;
      throw e;
    }
  }

  /**
   * Stage 3: decrypts and keeps the shares its neighbours sent, then masks {@code input} with
   * its self mask and one pairwise mask per neighbour that sent shares (added towards larger
   * ids, subtracted towards smaller ones), modulo {@code 2^modulusBits}.
   *
   * @throws SecAggException naming the sender of a ciphertext that fails authentication, or this
   *     client when an input element is outside {@code [0, 2^inputBits)}
   */
  public MaskedInput maskedInput(EncryptedShares shares, long[] input) {
    enter(SecAggStage.MASKED_INPUT);
    try {
      requireAddressed(shares.client());
      // Inputs are in [0, 2^inputBits): non-negative with no bit at or above inputBits.
      int bits = settings.inputBits();
      for (int i = 0; i < input.length; i++) {
        if (input[i] >>> bits != 0) {
          throw new SecAggException(Reason.INPUT_OUT_OF_RANGE, id, "client " + id
              + ": input element " + i + " is " + input[i] + ", outside [0, 2^" + bits + ")");
        }
      }
      int[] senders = shares.senders();
      for (int i = 0; i < senders.length; i++) {
        int s = senders[i];
        if (!neighbourEncryptionKeys.containsKey(s)) {
          throw new SecAggException(Reason.PROTOCOL_VIOLATION, s, "client " + s
              + " sent shares to client " + id + " but is not one of its neighbours");
        }
        byte[] plain;
        try {
          plain = ShareCipher.decrypt(agreeShareKey(s), shares.ciphertexts()[i],
              Protocol.aad(s, id));
        } catch (AEADBadTagException e) {
          throw new SecAggException(Reason.TAMPERED_MESSAGE, s, "the shares client " + s
              + " sent to client " + id + " fail authentication: they were changed", e);
        }
        Protocol.SharePlaintext p;
        try {
          p = Protocol.SharePlaintext.read(plain);
        } catch (IllegalArgumentException e) {
          throw new SecAggException(Reason.MALFORMED_MESSAGE, s, "the shares client " + s
              + " sent to client " + id + " are malformed: " + e.getMessage(), e);
        }
        if (p.sender() != s || p.recipient() != id) {
          throw new SecAggException(Reason.TAMPERED_MESSAGE, s, "the shares client " + s
              + " sent to client " + id + " name " + p.sender() + " to " + p.recipient());
        }
        held.put(s, new byte[][] {p.selfMaskShare(), p.maskingKeyShare()});
      }
      long[] masked = input.clone();
      MaskGenerator.apply(selfMaskSeed, masked, false);
      for (int s : held.keySet()) {
        byte[] seed;
        try {
          seed = Protocol.pairwiseSeed(masking.getPrivate(), neighbourMaskingKeys.get(s),
              settings.graphSeed());
        } catch (InvalidKeyException e) {
          throw new SecAggException(Reason.MALFORMED_MESSAGE, s, "client " + s
              + "'s masking key is unusable: " + e.getMessage(), e);
        }
        MaskGenerator.apply(seed, masked, id > s);
      }
      MaskGenerator.reduce(masked, modulusBits);
      next = SecAggStage.UNMASK;
      return new MaskedInput(id, masked);
    } catch (SecAggException e) {
      failed = true;
      throw e;
    }
  }

  /**
   * Stage 4: the shares the server needs: of the masking keys of the dropped clients and of the
   * self-mask seeds of the survivors, among the neighbours whose shares this client holds.
   *
   * @throws SecAggException when a client is both dropped and a survivor, or this client is not
   *     named a survivor
   */
  public UnmaskShares unmask(UnmaskRequest request) {
    enter(SecAggStage.UNMASK);
    try {
      requireAddressed(request.client());
      int[] dropped = request.dropped();
      int[] survivors = request.survivors();
      for (int d : dropped) {
        if (Arrays.binarySearch(survivors, d) >= 0) {
          throw new SecAggException(Reason.PROTOCOL_VIOLATION, d, "client " + d
              + " is named both dropped and a survivor; client " + id + " reveals nothing");
        }
      }
      if (Arrays.binarySearch(survivors, id) < 0) {
        throw new SecAggException(Reason.PROTOCOL_VIOLATION, id, "client " + id
            + " is asked to unmask but not named a survivor");
      }
      List<Integer> keyOwners = new ArrayList<>();
      List<byte[]> keyShares = new ArrayList<>();
      List<Integer> selfOwners = new ArrayList<>();
      List<byte[]> selfShares = new ArrayList<>();
      for (Map.Entry<Integer, byte[][]> e : held.entrySet()) {
        int owner = e.getKey();
        if (Arrays.binarySearch(dropped, owner) >= 0) {
          keyOwners.add(owner);
          keyShares.add(e.getValue()[1]);
        } else if (Arrays.binarySearch(survivors, owner) >= 0) {
          selfOwners.add(owner);
          selfShares.add(e.getValue()[0]);
        }
      }
      next = null;
      return new UnmaskShares(id, keyOwners.stream().mapToInt(Integer::intValue).toArray(),
          keyShares.toArray(byte[][]::new),
          selfOwners.stream().mapToInt(Integer::intValue).toArray(),
          selfShares.toArray(byte[][]::new));
    } catch (SecAggException e) {
      failed = true;
      throw e;
    }
  }

  private void enter(SecAggStage stage) {
    if (failed || next != stage) {
      throw new SecAggException(Reason.PROTOCOL_VIOLATION, id, "client " + id + " cannot answer "
          + stage + (failed ? ": it has failed" : next == null ? ": its round is over"
              : ": it expects " + next));
    }
  }

  private void requireAddressed(int recipient) {
    if (recipient != id) {
      throw new SecAggException(Reason.PROTOCOL_VIOLATION, id, "a message for client "
          + recipient + " reached client " + id);
    }
  }

  private PublicKey decode(byte[] raw, int owner) {
    try {
      return Keys.publicKey(raw);
    } catch (IllegalArgumentException e) {
      throw new SecAggException(Reason.MALFORMED_MESSAGE, owner, "client " + owner
          + "'s public key is unusable: " + e.getMessage(), e);
    }
  }

  private byte[] agreeShareKey(int neighbour) {
    try {
      return Protocol.shareKey(encryption.getPrivate(), neighbourEncryptionKeys.get(neighbour),
          settings.graphSeed());
    } catch (InvalidKeyException e) {
      throw new SecAggException(Reason.MALFORMED_MESSAGE, neighbour, "client " + neighbour
          + "'s encryption key is unusable: " + e.getMessage(), e);
    }
  }
}
