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
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The server of a SecAgg+ round, as a state machine that takes each stage's client messages at
 * once and returns what to send back: {@link #collectKeys}, {@link #collectShares},
 * {@link #collectMaskedInputs}, {@link #collectUnmaskShares} (which returns the sum).
 *
 * <p>Clients missing from a stage's messages have dropped out. The server fails the round with
 * {@link Reason#TOO_FEW_SURVIVORS} as soon as some client's secrets can no longer be recovered
 * (fewer than the threshold of its neighbours left), and before it asks anyone for shares; it
 * removes the masks only once every secret it needs is recovered, so a failed round reveals no
 * sum. {@link #transcript()} is everything it received.
 *
 * <p>Not thread-safe: one round, driven by one thread at a time.
 */
public final class SecAggServer {
  /** The length of a share ciphertext: nonce, the two shares with their header, and the tag. */
  private static final int CIPHERTEXT_BYTES = ShareCipher.NONCE + Protocol.PLAINTEXT_BYTES
      + ShareCipher.TAG;
  /** A throwaway key that public keys are tried against: small-order keys give a zero secret. */
  private static final PrivateKey SCREENING_KEY = Keys.generate(new java.security.SecureRandom())
      .getPrivate();
  /**
   * The most sets of {@code t} shares tried to recover one secret when some share is forged: a
   * bound on the work forgers can cause (about a second per secret), and enough for every set
   * of up to 14 shares.
   */
  public static final int MAX_RECOVERY_TRIES = 4096;
  private final int clients;
  private final int length;
  private final SecAggSettings settings;
  private final CommunicationGraph graph;
  private final int modulusBits;
  private SecAggStage next = SecAggStage.ADVERTISE_KEYS;
  private boolean failed;
  private final Map<Integer, AdvertiseKeys> advertised = new TreeMap<>();
  private final Map<Integer, ShareKeys> shared = new TreeMap<>();
  private final Map<Integer, MaskedInput> masked = new TreeMap<>();
  private final List<AdvertiseKeys> advertisedLog = new ArrayList<>();
  private final List<ShareKeys> sharedLog = new ArrayList<>();
  private final List<MaskedInput> maskedLog = new ArrayList<>();
  private final List<UnmaskShares> unmaskLog = new ArrayList<>();
  private long[] sum;

  /**
   * The server of a round of {@code clients} clients with inputs of {@code length} elements.
   *
   * @param settings the round's settings, as {@link SecAggSettings#forClients} adapted them
   */
  public SecAggServer(int clients, int length, SecAggSettings settings) {
    if (clients < 2 || length < 0) {
      throw new IllegalArgumentException("a round of " + clients + " clients and inputs of "
          + length + " elements");
    }
    this.clients = clients;
    this.length = length;
    this.settings = settings;
    this.graph = CommunicationGraph.harary(clients, settings.neighbours(), settings.graphSeed());
    if (graph.minDegree() < settings.threshold()) {
      throw new IllegalArgumentException("a threshold of " + settings.threshold()
          + " with clients of " + graph.minDegree() + " neighbours");
    }
    this.modulusBits = settings.modulusBits(clients);
  }

  /** The stage whose messages the server takes next. */
  public SecAggStage next() {
    return next;
  }

  /** The bits of the modulus the sum is computed modulo. */
  public int modulusBits() {
    return modulusBits;
  }

  /**
   * Stage 1: records the clients' keys and gives each its neighbours' keys.
   *
   * @throws SecAggException when a message is malformed or repeated, or some client has fewer
   *     than the threshold of neighbours left
   */
  public Map<Integer, KeyDirectory> collectKeys(Collection<AdvertiseKeys> messages) {
    enter(SecAggStage.ADVERTISE_KEYS);
    return guarded(() -> {
      for (AdvertiseKeys m : messages) {
        advertisedLog.add(m);
        requireKnown(m.client());
        if (advertised.putIfAbsent(m.client(), m) != null) {
          throw repeated(m.client(), SecAggStage.ADVERTISE_KEYS);
        }
      }
      Map<Integer, KeyDirectory> out = new TreeMap<>();
      for (int u : advertised.keySet()) {
        int[] ns = among(graph.neighbours(u), advertised.keySet());
        requireThreshold(u, ns.length, "advertised keys");
        out.put(u, new KeyDirectory(u, ns,
            Arrays.stream(ns).mapToObj(v -> advertised.get(v).encryptionKey())
                .toArray(byte[][]::new),
            Arrays.stream(ns).mapToObj(v -> advertised.get(v).maskingKey())
                .toArray(byte[][]::new)));
      }
      requireEnough(advertised.size(), "advertised keys");
      next = SecAggStage.SHARE_KEYS;
      return out;
    });
  }

  /**
   * Stage 2: routes the encrypted shares to their recipients.
   *
   * @throws SecAggException when a client addresses others than its neighbours that advertised
   *     keys, or some client's shares reach fewer than the threshold of neighbours
   */
  public Map<Integer, EncryptedShares> collectShares(Collection<ShareKeys> messages) {
    enter(SecAggStage.SHARE_KEYS);
    return guarded(() -> {
      for (ShareKeys m : messages) {
        sharedLog.add(m);
        requireKnown(m.client());
        if (!advertised.containsKey(m.client())) {
          throw new SecAggException(Reason.PROTOCOL_VIOLATION, m.client(), "client "
              + m.client() + " shares keys without having advertised any");
        }
        int[] expected = among(graph.neighbours(m.client()), advertised.keySet());
        if (!Arrays.equals(expected, m.recipients())) {
          throw new SecAggException(Reason.PROTOCOL_VIOLATION, m.client(), "client "
              + m.client() + " addresses shares to " + Arrays.toString(m.recipients())
              + ", expected " + Arrays.toString(expected));
        }
        if (shared.putIfAbsent(m.client(), m) != null) {
          throw repeated(m.client(), SecAggStage.SHARE_KEYS);
        }
      }
      for (int u : shared.keySet()) {
        requireThreshold(u, among(graph.neighbours(u), shared.keySet()).length,
            "shared keys");
      }
      requireEnough(shared.size(), "shared keys");
      Map<Integer, List<Integer>> senders = new TreeMap<>();
      Map<Integer, List<byte[]>> ciphertexts = new TreeMap<>();
      for (int v : shared.keySet()) {
        senders.put(v, new ArrayList<>());
        ciphertexts.put(v, new ArrayList<>());
      }
      for (ShareKeys m : shared.values()) {
        for (int i = 0; i < m.recipients().length; i++) {
          int v = m.recipients()[i];
          if (senders.containsKey(v)) {
            senders.get(v).add(m.client());
            ciphertexts.get(v).add(m.ciphertexts()[i]);
          }
        }
      }
      Map<Integer, EncryptedShares> out = new TreeMap<>();
      for (int v : shared.keySet()) {
        out.put(v, new EncryptedShares(v,
            senders.get(v).stream().mapToInt(Integer::intValue).toArray(),
            ciphertexts.get(v).toArray(byte[][]::new)));
      }
      next = SecAggStage.MASKED_INPUT;
      return out;
    });
  }

  /**
   * Stage 3: records the masked inputs and asks the survivors for the shares that unmask them.
   *
   * @throws SecAggException when an input has the wrong length or comes from a client that did
   *     not share keys, or some client's secrets are held by fewer than the threshold of
   *     survivors (then nobody is asked for shares)
   */
  public Map<Integer, UnmaskRequest> collectMaskedInputs(Collection<MaskedInput> messages) {
    enter(SecAggStage.MASKED_INPUT);
    return guarded(() -> {
      for (MaskedInput m : messages) {
        maskedLog.add(m);
        requireKnown(m.client());
        if (!shared.containsKey(m.client())) {
          throw new SecAggException(Reason.PROTOCOL_VIOLATION, m.client(), "client "
              + m.client() + " sends a masked input without having shared keys");
        }
        if (m.masked().length != length) {
          throw new SecAggException(Reason.MALFORMED_MESSAGE, m.client(), "client "
              + m.client() + "'s masked input has " + m.masked().length + " elements, expected "
              + length);
        }
        if (masked.putIfAbsent(m.client(), m) != null) {
          throw repeated(m.client(), SecAggStage.MASKED_INPUT);
        }
      }
      for (int u : shared.keySet()) {
        requireThreshold(u, among(graph.neighbours(u), masked.keySet()).length,
            "sent masked inputs");
      }
      requireEnough(masked.size(), "sent masked inputs");
      int[] survivors = masked.keySet().stream().mapToInt(Integer::intValue).toArray();
      int[] dropped = shared.keySet().stream().filter(u -> !masked.containsKey(u))
          .mapToInt(Integer::intValue).toArray();
      Map<Integer, UnmaskRequest> out = new TreeMap<>();
      for (int v : survivors) {
        out.put(v, new UnmaskRequest(v, dropped, survivors));
      }
      next = SecAggStage.UNMASK;
      return out;
    });
  }

  /**
   * Stage 4: recovers the self-mask seed of every survivor and the masking key of every client
   * that dropped after sharing, removes all masks and returns the sum of the survivors' inputs
   * modulo {@code 2^modulusBits}.
   *
   * @throws SecAggException when some secret has fewer than the threshold of shares (no sum is
   *     computed), no set of {@code t} shares gives the secret its owner published (its masking
   *     public key, its self-mask commitment), a client sends shares it must not, or an element
   *     of the sum exceeds what in-range inputs can sum to ({@link Reason#INPUT_OUT_OF_RANGE})
   */
  public long[] collectUnmaskShares(Collection<UnmaskShares> messages) {
    enter(SecAggStage.UNMASK);
    return guarded(() -> {
      Map<Integer, UnmaskShares> responses = new TreeMap<>();
      for (UnmaskShares m : messages) {
        unmaskLog.add(m);
        requireKnown(m.client());
        if (!masked.containsKey(m.client())) {
          throw new SecAggException(Reason.PROTOCOL_VIOLATION, m.client(), "client "
              + m.client() + " sends shares without having sent a masked input");
        }
        if (responses.putIfAbsent(m.client(), m) != null) {
          throw repeated(m.client(), SecAggStage.UNMASK);
        }
        for (int owner : m.maskingKeyOwners()) {
          if (masked.containsKey(owner) || !shared.containsKey(owner)
              || !graph.adjacent(owner, m.client())) {
            throw new SecAggException(Reason.PROTOCOL_VIOLATION, m.client(), "client "
                + m.client() + " sends a masking-key share of client " + owner
                + ", which is not a dropped neighbour");
          }
        }
        for (int owner : m.selfMaskOwners()) {
          if (!masked.containsKey(owner) || !graph.adjacent(owner, m.client())) {
            throw new SecAggException(Reason.PROTOCOL_VIOLATION, m.client(), "client "
                + m.client() + " sends a self-mask share of client " + owner
                + ", which is not a surviving neighbour");
          }
        }
      }
      Map<Integer, byte[]> selfSeeds = new TreeMap<>();
      for (int u : masked.keySet()) {
        selfSeeds.put(u, recover(u, responses, false));
      }
      Map<Integer, byte[]> droppedKeys = new TreeMap<>();
      for (int d : shared.keySet()) {
        if (!masked.containsKey(d)) {
          droppedKeys.put(d, recover(d, responses, true));
        }
      }
      long[] total = new long[length];
      for (MaskedInput m : masked.values()) {
        long[] y = m.masked();
        for (int i = 0; i < length; i++) {
          total[i] += y[i];
        }
      }
      for (byte[] seed : selfSeeds.values()) {
        MaskGenerator.apply(seed, total, true);
      }
      for (Map.Entry<Integer, byte[]> e : droppedKeys.entrySet()) {
        int d = e.getKey();
        PrivateKey key = Keys.privateKey(e.getValue());
        for (int v : among(graph.neighbours(d), masked.keySet())) {
          byte[] seed;
          try {
            seed = Protocol.pairwiseSeed(key,
                Keys.publicKey(advertised.get(v).maskingKey()), settings.graphSeed());
          } catch (InvalidKeyException | IllegalArgumentException ex) {
            throw new SecAggException(Reason.MALFORMED_MESSAGE, v, "client " + v
                + "'s masking key is unusable: " + ex.getMessage(), ex);
          }
          // v added this mask when v < d and subtracted it when v > d.
          MaskGenerator.apply(seed, total, v < d);
        }
      }
      MaskGenerator.reduce(total, modulusBits);
      requireInRange(total, masked.size());
      sum = total;
      next = null;
      return total.clone();
    });
  }

  /**
   * Why the server would refuse {@code message} from {@code sender} at its current stage, without
   * taking it: a message of another stage (such as a replayed one), one naming another client,
   * a second message from the client, an unusable public key (not X25519, or of small order), a
   * share for a client that is not one of its neighbours that advertised keys, a ciphertext of
   * the wrong length, a masked input of the wrong length, or unmask shares it must not send.
   * A transport that cannot trust its clients screens every message and leaves the refused ones
   * out, as if their senders had dropped out; the stage's threshold checks then decide whether
   * the round can go on. Empty when the message is acceptable.
   */
  public Optional<SecAggException> screen(int sender, SecAggMessage message) {
    try {
      requireKnown(sender);
      if (message.client() != sender) {
        throw new SecAggException(Reason.PROTOCOL_VIOLATION, sender, "client " + sender
            + " sent a message naming client " + message.client());
      }
      if (next == null || failed) {
        throw new SecAggException(Reason.PROTOCOL_VIOLATION, sender, "the round takes no more "
            + "messages");
      }
      switch (next) {
        case ADVERTISE_KEYS -> {
          if (!(message instanceof AdvertiseKeys m)) {
            throw wrongStage(sender, message);
          }
          if (advertised.containsKey(sender)) {
            throw repeated(sender, next);
          }
          requireUsableKey(sender, m.encryptionKey(), "encryption");
          requireUsableKey(sender, m.maskingKey(), "masking");
        }
        case SHARE_KEYS -> {
          if (!(message instanceof ShareKeys m)) {
            throw wrongStage(sender, message);
          }
          if (!advertised.containsKey(sender) || shared.containsKey(sender)) {
            throw new SecAggException(Reason.PROTOCOL_VIOLATION, sender, "client " + sender
                + " shares keys without having advertised any, or a second time");
          }
          int[] expected = among(graph.neighbours(sender), advertised.keySet());
          if (!Arrays.equals(expected, m.recipients())) {
            throw new SecAggException(Reason.PROTOCOL_VIOLATION, sender, "client " + sender
                + " addresses shares to " + Arrays.toString(m.recipients()) + ", expected its "
                + "neighbours " + Arrays.toString(expected));
          }
          for (byte[] c : m.ciphertexts()) {
            if (c.length != CIPHERTEXT_BYTES) {
              throw new SecAggException(Reason.MALFORMED_MESSAGE, sender, "client " + sender
                  + " sent a ciphertext of " + c.length + " bytes, expected "
                  + CIPHERTEXT_BYTES);
            }
          }
        }
        case MASKED_INPUT -> {
          if (!(message instanceof MaskedInput m)) {
            throw wrongStage(sender, message);
          }
          if (!shared.containsKey(sender) || masked.containsKey(sender)) {
            throw new SecAggException(Reason.PROTOCOL_VIOLATION, sender, "client " + sender
                + " sends a masked input without having shared keys, or a second time");
          }
          if (m.masked().length != length) {
            throw new SecAggException(Reason.MALFORMED_MESSAGE, sender, "client " + sender
                + "'s masked input has " + m.masked().length + " elements, expected " + length);
          }
        }
        case UNMASK -> {
          if (!(message instanceof UnmaskShares m)) {
            throw wrongStage(sender, message);
          }
          if (!masked.containsKey(sender)) {
            throw new SecAggException(Reason.PROTOCOL_VIOLATION, sender, "client " + sender
                + " sends shares without having sent a masked input");
          }
          for (int owner : m.maskingKeyOwners()) {
            if (masked.containsKey(owner) || !shared.containsKey(owner)
                || !graph.adjacent(owner, sender)) {
              throw new SecAggException(Reason.PROTOCOL_VIOLATION, sender, "client " + sender
                  + " sends a masking-key share of client " + owner
                  + ", which is not a dropped neighbour");
            }
          }
          for (int owner : m.selfMaskOwners()) {
            if (!masked.containsKey(owner) || !graph.adjacent(owner, sender)) {
              throw new SecAggException(Reason.PROTOCOL_VIOLATION, sender, "client " + sender
                  + " sends a self-mask share of client " + owner
                  + ", which is not a surviving neighbour");
            }
          }
        }
      }
      return Optional.empty();
    } catch (SecAggException e) {
      return Optional.of(e);
    }
  }

  private SecAggException wrongStage(int sender, SecAggMessage message) {
    return new SecAggException(Reason.PROTOCOL_VIOLATION, sender, "client " + sender + " sent a "
        + message.getClass().getSimpleName() + " message while the round is at " + next);
  }

  private static void requireUsableKey(int sender, byte[] raw, String what) {
    try {
      Keys.agree(SCREENING_KEY, Keys.publicKey(raw));
    } catch (InvalidKeyException | IllegalArgumentException e) {
      throw new SecAggException(Reason.MALFORMED_MESSAGE, sender, "client " + sender + "'s "
          + what + " key fails verification: " + e.getMessage(), e);
    }
  }

  /** Everything received so far, and the sum once unmasked. */
  public SecAggTranscript transcript() {
    return new SecAggTranscript(advertisedLog, sharedLog, maskedLog, unmaskLog,
        Optional.ofNullable(sum));
  }

  /**
   * The secret of {@code owner} from the shares its neighbours sent: its masking key when
   * {@code maskingKey}, else its self-mask seed. A candidate counts only when it matches what
   * the owner published before any share was revealed: the public half of its masking key, or
   * its commitment to the seed. When the first {@code t} shares give no such secret (some
   * neighbour forged its share), other sets of {@code t} are tried, up to
   * {@link #MAX_RECOVERY_TRIES}: with at least {@code t} honest shares among them, a forged one
   * can make the round fail but never move the secret.
   */
  private byte[] recover(int owner, Map<Integer, UnmaskShares> responses, boolean maskingKey) {
    List<Integer> points = new ArrayList<>();
    List<byte[]> shares = new ArrayList<>();
    for (UnmaskShares r : responses.values()) {
      int[] owners = maskingKey ? r.maskingKeyOwners() : r.selfMaskOwners();
      int at = Arrays.binarySearch(owners, owner);
      if (at >= 0) {
        points.add(Protocol.sharePoint(r.client()));
        shares.add(maskingKey ? r.maskingKeyShares()[at] : r.selfMaskShares()[at]);
      }
    }
    int t = settings.threshold();
    String what = maskingKey ? "masking key" : "self-mask seed";
    if (points.size() < t) {
      throw new SecAggException(Reason.TOO_FEW_SURVIVORS, owner, "only " + points.size()
          + " shares of client " + owner + "'s " + what + " arrived, fewer than the threshold "
          + t + ": the sum cannot be unmasked and none is revealed");
    }
    Predicate<byte[]> published = maskingKey
        ? key -> Arrays.equals(Keys.publicOf(key), advertised.get(owner).maskingKey())
        : seed -> MessageDigest.isEqual(Protocol.selfMaskCommitment(settings.graphSeed(), owner,
            seed), shared.get(owner).selfMaskCommitment());
    int n = points.size();
    // The sets are walked by the shares they leave out, in lexicographic order, so that every
    // set leaving out one given share comes within the first n tries: one forger costs at most
    // n combinations, a few forgers a few powers of n.
    int[] left = new int[n - t];
    for (int i = 0; i < left.length; i++) {
      left[i] = i;
    }
    int tries = 0;
    do {
      tries++;
      int[] xs = new int[t];
      byte[][] ys = new byte[t][];
      for (int i = 0, j = 0, l = 0; i < n; i++) {
        if (l < left.length && left[l] == i) {
          l++;
        } else {
          xs[j] = points.get(i);
          ys[j++] = shares.get(i);
        }
      }
      try {
        byte[] secret = Shamir.combine(xs, ys);
        if (published.test(secret)) {
          return secret;
        }
      } catch (IllegalArgumentException e) {
        // This set holds a share that is no field element or does not interpolate to a secret
        // of the right size: a forged one. Another set may still do.
      }
    } while (tries < MAX_RECOVERY_TRIES && nextSubset(left, n));
    throw new SecAggException(Reason.INCONSISTENT_SHARES, owner, "no " + t + " of the " + n
        + " shares of client " + owner + "'s " + what + " give the "
        + (maskingKey ? "key matching its advertised public key" : "seed it committed to")
        + " (" + tries + " sets tried): a neighbour forged its share, or the client lied; "
        + "the round fails and no sum is revealed");
  }

  /** Steps {@code pick} to the next ascending choice of its length from {@code 0..n-1}. */
  private static boolean nextSubset(int[] pick, int n) {
    int k = pick.length;
    for (int i = k - 1; i >= 0; i--) {
      if (pick[i] < n - k + i) {
        pick[i]++;
        for (int j = i + 1; j < k; j++) {
          pick[j] = pick[j - 1] + 1;
        }
        return true;
      }
    }
    return false;
  }

  /**
   * Fails the round when some element of the unmasked sum of {@code survivors} inputs exceeds
   * {@code survivors * (2^inputBits - 1)}: no set of honest inputs sums to it, so a participant
   * sent an input out of range (or masked it with something else). Skipped when that bound
   * reaches the modulus, where every value is possible.
   */
  private void requireInRange(long[] total, int survivors) {
    int inputBits = Math.min(63, settings.inputBits());
    long max = (1L << inputBits) - 1;
    if (Math.multiplyHigh(max, survivors) != 0
        || (modulusBits < 64 && max * survivors >= (1L << modulusBits))
        || (modulusBits == 64 && max * survivors < 0)) {
      return;
    }
    long bound = max * survivors;
    for (int i = 0; i < total.length; i++) {
      if (Long.compareUnsigned(total[i], bound) > 0) {
        throw new SecAggException(Reason.INPUT_OUT_OF_RANGE, "range check: element " + i
            + " of the unmasked sum of " + survivors + " inputs is "
            + Long.toUnsignedString(total[i]) + ", above " + survivors + " x (2^" + inputBits
            + " - 1) = " + bound + ": a participant's input was out of range; the round fails "
            + "and no sum is revealed");
      }
    }
  }

  private interface Step<T> {
    T run();
  }

  private <T> T guarded(Step<T> step) {
    try {
      return step.run();
    } catch (SecAggException e) {
      failed = true;
      throw e;
    }
  }

  private void enter(SecAggStage stage) {
    if (failed || next != stage) {
      throw new SecAggException(Reason.PROTOCOL_VIOLATION, "the server cannot take " + stage
          + " messages" + (failed ? ": the round has failed" : next == null
              ? ": the round is over" : ": it expects " + next));
    }
  }

  private void requireKnown(int client) {
    if (client >= clients) {
      throw new SecAggException(Reason.MALFORMED_MESSAGE, client, "client " + client
          + " is not one of the round's " + clients + " clients");
    }
  }

  private void requireThreshold(int client, int left, String what) {
    if (left < settings.threshold()) {
      throw new SecAggException(Reason.TOO_FEW_SURVIVORS, client, "only " + left
          + " neighbours of client " + client + " " + what + ", fewer than the threshold "
          + settings.threshold() + ": the round fails and no sum is revealed");
    }
  }

  /**
   * Fails the round when fewer than {@code t + 1} clients took part in a stage: a client's
   * secrets need {@code t} others, and a sum of fewer clients would say too much about each.
   * (With any client present, the neighbourhood checks imply this; it catches empty stages.)
   */
  private void requireEnough(int present, String what) {
    if (present < settings.threshold() + 1) {
      throw new SecAggException(Reason.TOO_FEW_SURVIVORS, "only " + present + " clients "
          + what + ", fewer than threshold + 1 = " + (settings.threshold() + 1)
          + ": the round fails and no sum is revealed");
    }
  }

  private static SecAggException repeated(int client, SecAggStage stage) {
    return new SecAggException(Reason.PROTOCOL_VIOLATION, client, "client " + client
        + " sent a second " + stage + " message");
  }

  private static int[] among(int[] candidates, java.util.Set<Integer> present) {
    return Arrays.stream(candidates).filter(present::contains).toArray();
  }
}
