package io.tributary.flower.secaggplus.internal;

import io.tributary.flower.records.ConfigRecord;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.NpyException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One node's side of Flower's SecAgg+ for one run, stage by stage as {@code secaggplus_mod} runs
 * it. A stage that fails leaves the state as it was, so a malformed, replayed or out-of-order
 * message costs only its own reply.
 */
public final class SecAggPlusClient {
  /** Bounds the share count a server may ask for before anything is allocated for it. */
  public static final int MAX_SHARES = 1 << 16;
  /** The largest mod range accepted: numpy's int64 masks hold it. */
  public static final long MAX_MOD_RANGE = 1L << 62;

  private final SecureRandom random;
  private Stage stage = Stage.UNMASK;
  private long nid;
  private int shareNum;
  private int threshold;
  private double clippingRange;
  private long targetRange;
  private long modRange;
  private double maxWeight;
  private KeyPair pair1;
  private KeyPair pair2;
  private byte[] pk1;
  private byte[] pk2;
  private byte[] rdSeed;
  private Map<Long, byte[]> seedShares = new HashMap<>();
  private Map<Long, byte[]> keyShares = new HashMap<>();
  private Map<Long, byte[]> sharedKeys2 = new HashMap<>();
  private LinkedHashMap<Long, byte[][]> publicKeys = new LinkedHashMap<>();

  public SecAggPlusClient(SecureRandom random) {
    this.random = random;
  }

  /**
   * The stage a message asks for, checked against the protocol's order: {@code setup} at any
   * time (a restart), any other only right after its predecessor.
   */
  public Stage check(ConfigRecord configs) throws SecAggPlusException {
    if (!(configs.get(Keys.STAGE) instanceof String s)) {
      throw new SecAggPlusException("the required key '" + Keys.STAGE
          + "' is missing from the ConfigRecord or not a str");
    }
    Stage next = Stage.of(s);
    if (next != Stage.SETUP && next != stage.next()) {
      throw new SecAggPlusException("Abort secure aggregation: expect " + stage.next().wire()
          + " stage, but receive " + next.wire() + " stage");
    }
    return next;
  }

  /** Stage {@code setup}: reads the parameters, makes two key pairs, replies the public keys. */
  public Map<String, Object> setup(long nodeId, ConfigRecord c) throws SecAggPlusException {
    long sampleNum = ConfigValues.integer(c, Keys.SAMPLE_NUMBER);
    long shares = ConfigValues.integer(c, Keys.SHARE_NUMBER);
    long thr = ConfigValues.integer(c, Keys.THRESHOLD);
    double clip = ConfigValues.real(c, Keys.CLIPPING_RANGE);
    long target = ConfigValues.integer(c, Keys.TARGET_RANGE);
    long mod = ConfigValues.integer(c, Keys.MOD_RANGE);
    double weight = ConfigValues.number(c, Keys.MAX_WEIGHT);
    if (sampleNum < 2 || shares < 1 || shares > MAX_SHARES || thr < 1 || thr > shares) {
      throw new SecAggPlusException("setup: sample_num " + sampleNum + ", share_num " + shares
          + ", threshold " + thr + " (need 1 <= threshold <= share_num <= " + MAX_SHARES + ")");
    }
    if (!(clip > 0) || Double.isInfinite(clip) || !(weight > 0) || Double.isInfinite(weight)
        || target < 1 || mod < 2 || mod > MAX_MOD_RANGE) {
      throw new SecAggPlusException("setup: clipping_range " + clip + ", max_weight " + weight
          + ", target_range " + target + ", mod_range " + mod + " are out of range");
    }
    KeyPair p1 = FlowerCrypto.generateKeyPair();
    KeyPair p2 = FlowerCrypto.generateKeyPair();
    stage = Stage.SETUP;
    nid = nodeId;
    shareNum = (int) shares;
    threshold = (int) thr;
    clippingRange = clip;
    targetRange = target;
    modRange = mod;
    maxWeight = weight;
    pair1 = p1;
    pair2 = p2;
    pk1 = FlowerCrypto.publicKeyPem(p1.getPublic());
    pk2 = FlowerCrypto.publicKeyPem(p2.getPublic());
    rdSeed = null;
    seedShares = new HashMap<>();
    keyShares = new HashMap<>();
    sharedKeys2 = new HashMap<>();
    publicKeys = new LinkedHashMap<>();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(Keys.PUBLIC_KEY_1, pk1);
    out.put(Keys.PUBLIC_KEY_2, pk2);
    return out;
  }

  /**
   * Stage {@code share_keys}: checks the neighbours' public keys, shares the mask seed and the
   * first private key among them and replies each share encrypted for its holder.
   */
  public Map<String, Object> shareKeys(ConfigRecord c) throws SecAggPlusException {
    LinkedHashMap<Long, byte[][]> keys = new LinkedHashMap<>();
    Set<ByteBuffer> distinct = new HashSet<>();
    for (Map.Entry<String, Object> e : c.values().entrySet()) {
      if (e.getKey().equals(Keys.STAGE)) {
        continue;
      }
      long id;
      try {
        id = Long.parseUnsignedLong(e.getKey());
      } catch (NumberFormatException ex) {
        throw new SecAggPlusException("share_keys: the key '" + e.getKey()
            + "' is not a node id");
      }
      if (!(e.getValue() instanceof List<?> l) || l.size() != 2
          || !(l.get(0) instanceof byte[] a) || !(l.get(1) instanceof byte[] b)) {
        throw new SecAggPlusException("share_keys: the value for the key '" + e.getKey()
            + "' must be a list of two bytes");
      }
      keys.put(id, new byte[][] {a, b});
      distinct.add(ByteBuffer.wrap(a));
      distinct.add(ByteBuffer.wrap(b));
    }
    if (keys.size() < threshold) {
      throw new SecAggPlusException("Available neighbours number smaller than threshold");
    }
    if (keys.size() > shareNum) {
      throw new SecAggPlusException("share_keys: " + keys.size()
          + " neighbours for " + shareNum + " shares");
    }
    if (distinct.size() != 2 * keys.size()) {
      throw new SecAggPlusException("Some public keys are identical");
    }
    byte[][] own = keys.get(nid);
    if (own == null || !java.util.Arrays.equals(own[0], pk1)
        || !java.util.Arrays.equals(own[1], pk2)) {
      throw new SecAggPlusException("share_keys: this node's own public keys are missing or "
          + "wrong in the message");
    }
    byte[] seed = new byte[32];
    random.nextBytes(seed);
    List<byte[]> bShares = ShamirGf128.split(seed, threshold, shareNum, random);
    List<byte[]> skShares = ShamirGf128.split(FlowerCrypto.privateKeyPem(pair1.getPrivate()),
        threshold, shareNum, random);
    Map<Long, byte[]> seedSh = new HashMap<>();
    Map<Long, byte[]> keySh = new HashMap<>();
    Map<Long, byte[]> ss2 = new HashMap<>();
    List<Object> dsts = new ArrayList<>();
    List<byte[]> ctxts = new ArrayList<>();
    int idx = 0;
    try {
      for (Map.Entry<Long, byte[][]> e : keys.entrySet()) {
        long other = e.getKey();
        if (other == nid) {
          seedSh.put(nid, bShares.get(idx));
          keySh.put(nid, skShares.get(idx));
        } else {
          byte[] shared = FlowerCrypto.sharedKey(pair2.getPrivate(),
              FlowerCrypto.publicKey(e.getValue()[1]));
          ss2.put(other, shared);
          byte[] plain = new SharePlaintext(nid, other, bShares.get(idx), skShares.get(idx))
              .encode();
          dsts.add(ConfigValues.nodeIdValue(other));
          ctxts.add(FlowerCrypto.encrypt(shared, plain, random));
        }
        idx++;
      }
    } catch (GeneralSecurityException ex) {
      throw new SecAggPlusException("share_keys: a neighbour's key is unusable: "
          + ex.getMessage());
    }
    stage = Stage.SHARE_KEYS;
    publicKeys = keys;
    rdSeed = seed;
    seedShares = seedSh;
    keyShares = keySh;
    sharedKeys2 = ss2;
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(Keys.DESTINATION_LIST, dsts);
    out.put(Keys.CIPHERTEXT_LIST, ctxts);
    return out;
  }

  /** The neighbours' shares decrypted in stage {@code collect_masked_vectors}, not yet kept. */
  public record Received(List<Long> sources, Map<Long, byte[]> seedShares,
      Map<Long, byte[]> keyShares) {}

  /** Stage {@code collect_masked_vectors}, first half: decrypts and checks the shares. */
  public Received receive(ConfigRecord c) throws SecAggPlusException {
    List<byte[]> ctxts = ConfigValues.bytesList(c, Keys.CIPHERTEXT_LIST);
    List<Long> srcs = ConfigValues.nodeIds(c, Keys.SOURCE_LIST);
    if (ctxts.size() != srcs.size()) {
      throw new SecAggPlusException("collect_masked_vectors: " + ctxts.size()
          + " ciphertexts from " + srcs.size() + " sources");
    }
    if (ctxts.size() + 1 < threshold) {
      throw new SecAggPlusException("Not enough available neighbour clients.");
    }
    Map<Long, byte[]> seedSh = new HashMap<>();
    Map<Long, byte[]> keySh = new HashMap<>();
    for (int i = 0; i < srcs.size(); i++) {
      long src = srcs.get(i);
      byte[] key = sharedKeys2.get(src);
      if (key == null || !publicKeys.containsKey(src)) {
        throw new SecAggPlusException("collect_masked_vectors: node "
            + Long.toUnsignedString(src) + " is not a neighbour");
      }
      SharePlaintext p;
      try {
        p = SharePlaintext.decode(FlowerCrypto.decrypt(key, ctxts.get(i)));
      } catch (GeneralSecurityException ex) {
        throw new SecAggPlusException("collect_masked_vectors: the ciphertext from node "
            + Long.toUnsignedString(src) + " does not decrypt: " + ex.getMessage());
      }
      if (p.src() != src) {
        throw new SecAggPlusException("Node " + Long.toUnsignedString(nid)
            + ": received ciphertext from " + Long.toUnsignedString(p.src()) + " instead of "
            + Long.toUnsignedString(src) + ".");
      }
      if (p.dst() != nid) {
        throw new SecAggPlusException("Node " + Long.toUnsignedString(nid)
            + ": received an encrypted message for Node " + Long.toUnsignedString(p.dst()));
      }
      seedSh.put(src, p.seedShare());
      keySh.put(src, p.keyShare());
    }
    return new Received(List.copyOf(srcs), seedSh, keySh);
  }

  /**
   * Stage {@code collect_masked_vectors}, second half: the app's update weighted by its example
   * count, quantized, prefixed with the quantized weight, masked with the private mask and the
   * pairwise masks of the sources, as NPY int64 bytes.
   */
  public Map<String, Object> mask(Received r, long numExamples, List<Tensor> update)
      throws SecAggPlusException {
    if (numExamples < 0) {
      throw new SecAggPlusException("the app replied num_examples " + numExamples);
    }
    long qRatio = (long) Math.rint(numExamples / maxWeight * targetRange);
    double dqRatio = (double) qRatio / targetRange;
    List<long[]> vectors = new ArrayList<>();
    List<long[]> shapes = new ArrayList<>();
    vectors.add(new long[] {qRatio});
    shapes.add(new long[] {1});
    for (Tensor t : update) {
      double[] v = t.toDoubleArray();
      for (int i = 0; i < v.length; i++) {
        if (!Double.isFinite(v[i])) {
          throw new SecAggPlusException("the app's update holds a non-finite value");
        }
        v[i] *= dqRatio;
      }
      vectors.add(Quantization.quantize(v, clippingRange, targetRange, random));
      shapes.add(t.shape().dims());
    }
    long[] sizes = vectors.stream().mapToLong(a -> a.length).toArray();
    add(vectors, NumpyMasks.masks(rdSeed, modRange, sizes), 1);
    try {
      PrivateKey sk1 = pair1.getPrivate();
      for (long src : r.sources()) {
        byte[] shared = FlowerCrypto.sharedKey(sk1, FlowerCrypto.publicKey(
            publicKeys.get(src)[0]));
        add(vectors, NumpyMasks.masks(shared, modRange, sizes),
            Long.compareUnsigned(nid, src) > 0 ? 1 : -1);
      }
    } catch (GeneralSecurityException ex) {
      throw new SecAggPlusException("collect_masked_vectors: a neighbour's key is unusable: "
          + ex.getMessage());
    }
    List<byte[]> masked = new ArrayList<>();
    try {
      for (int i = 0; i < vectors.size(); i++) {
        long[] v = vectors.get(i);
        for (int j = 0; j < v.length; j++) {
          v[j] = Quantization.mod(v[j], modRange);
        }
        masked.add(Npy.toBytes(Tensor.ofLongs(Shape.of(shapes.get(i)), v)));
      }
    } catch (NpyException ex) {
      throw new SecAggPlusException("cannot write the masked vector: " + ex.getMessage());
    }
    stage = Stage.COLLECT_MASKED_VECTORS;
    seedShares.putAll(r.seedShares());
    keyShares.putAll(r.keyShares());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(Keys.MASKED_PARAMETERS, masked);
    return out;
  }

  private static void add(List<long[]> vectors, List<long[]> masks, int sign) {
    for (int i = 0; i < vectors.size(); i++) {
      long[] v = vectors.get(i);
      long[] m = masks.get(i);
      for (int j = 0; j < v.length; j++) {
        v[j] += sign * m[j];
      }
    }
  }

  /**
   * Stage {@code unmask}: the mask-seed shares of the active neighbours and the key shares of
   * the dropped ones.
   */
  public Map<String, Object> unmask(ConfigRecord c) throws SecAggPlusException {
    List<Long> active = ConfigValues.nodeIds(c, Keys.ACTIVE_NODE_ID_LIST);
    List<Long> dead = ConfigValues.nodeIds(c, Keys.DEAD_NODE_ID_LIST);
    if (active.size() < threshold) {
      throw new SecAggPlusException("Available neighbours number smaller than threshold");
    }
    List<Object> nids = new ArrayList<>();
    List<byte[]> shares = new ArrayList<>();
    for (long a : active) {
      byte[] s = seedShares.get(a);
      if (s == null) {
        throw new SecAggPlusException("unmask: no share of node " + Long.toUnsignedString(a)
            + "'s mask seed");
      }
      nids.add(ConfigValues.nodeIdValue(a));
      shares.add(s);
    }
    for (long d : dead) {
      byte[] s = keyShares.get(d);
      if (s == null || active.contains(d)) {
        throw new SecAggPlusException("unmask: no share of node " + Long.toUnsignedString(d)
            + "'s key, or the node is both active and dead");
      }
      nids.add(ConfigValues.nodeIdValue(d));
      shares.add(s);
    }
    stage = Stage.UNMASK;
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(Keys.NODE_ID_LIST, nids);
    out.put(Keys.SHARE_LIST, shares);
    return out;
  }
}
