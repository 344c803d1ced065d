package io.tributary.flower.secaggplus;

import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.secaggplus.internal.ConfigValues;
import io.tributary.flower.secaggplus.internal.FlowerCrypto;
import io.tributary.flower.secaggplus.internal.Keys;
import io.tributary.flower.secaggplus.internal.NumpyMasks;
import io.tributary.flower.secaggplus.internal.Quantization;
import io.tributary.flower.secaggplus.internal.SecAggPlusException;
import io.tributary.flower.secaggplus.internal.ShamirGf128;
import io.tributary.flower.secaggplus.internal.Stage;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.NpyException;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The server side of Flower 1.27's {@code SecAggPlusWorkflow}: {@code setup},
 * {@code share_keys}, {@code collect_masked_vectors} (the nodes train here) and {@code unmask}
 * as {@code train} messages whose {@code secaggplus_configs} Flower's {@code secaggplus_mod} and
 * {@link io.tributary.flower.app.mod.SecAggPlusMod} answer; then the masks are removed and the
 * weighted mean dequantized, as Flower's workflow does.
 *
 * <p>Unlike Flower's workflow it tolerates what it can: a node whose reply is missing, an error
 * or malformed at any stage is dropped with the reason; only nodes that shared keys and then
 * dropped have their pairwise masks recovered (Flower's also asks for nodes that dropped before
 * sharing, and fails). The round fails, revealing nothing, when some node has fewer than
 * {@code threshold} live neighbours or a secret cannot be recovered.
 */
public final class SecAggPlusWorkflow {
  /** Bounds the elements of a masked vector before it is summed. */
  public static final long MAX_ELEMENTS = 1L << 27;

  /** Delivers one stage's {@code train} messages. */
  @FunctionalInterface
  public interface Nodes {
    /**
     * Sends each node its {@code train} message content and returns the content of every reply
     * that came back without an error in the stage's time; a missing node has dropped.
     *
     * @param stage the stage's wire name, for logs
     */
    Map<Long, RecordDict> train(String stage, Map<Long, RecordDict> contents);

    /**
     * Told, as it happens, that {@code node} left the round at a stage and why (a missing reply
     * or one the workflow refused), so that a caller learns of the drop-outs of a round that
     * then fails too; nothing by default.
     */
    default void dropped(long node, String why) {
    }
  }

  private final SecAggPlusSettings settings;
  private final SecureRandom random;

  public SecAggPlusWorkflow(SecAggPlusSettings settings) {
    this(settings, new SecureRandom());
  }

  /** A workflow shuffling the neighbourhoods with {@code random}. */
  public SecAggPlusWorkflow(SecAggPlusSettings settings, SecureRandom random) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.random = Objects.requireNonNull(random, "random");
  }

  /**
   * Runs one round over {@code sampled}; {@code fitIns} gives each node's training content
   * (Flower's {@code fitins.*} records) for the collect stage.
   */
  public SecAggPlusResult run(List<Long> sampled, Map<Long, RecordDict> fitIns, Nodes nodes)
      throws SecAggPlusRoundException {
    return run(sampled, fitIns, nodes, null);
  }

  /**
   * Like {@link #run(List, Map, Nodes)}, where every survivor's parameters must have
   * {@code shapes} (the model's): a masked vector of other shapes drops its node. Without them
   * the first masked vector's shapes are the reference (a node sending other shapes first then
   * drops the honest nodes instead).
   */
  public SecAggPlusResult run(List<Long> sampled, Map<Long, RecordDict> fitIns, Nodes nodes,
      List<long[]> shapes) throws SecAggPlusRoundException {
    List<long[]> expected = null;
    if (shapes != null) {
      expected = new ArrayList<>();
      expected.add(new long[] {1});
      for (long[] d : shapes) {
        expected.add(d.clone());
      }
    }
    List<Long> ids = new ArrayList<>(new LinkedHashSet<>(sampled));
    int n = ids.size();
    if (n < 2) {
      throw new SecAggPlusRoundException("setup: SecAgg+ needs at least 2 nodes, got " + n);
    }
    int shares = Math.min(settings.numShares(), n);
    if (shares < n && shares % 2 == 0) {
      shares++;
    }
    int threshold = Math.min(settings.threshold(), shares);
    Map<Long, String> failures = new LinkedHashMap<>();
    Collections.shuffle(ids, random);
    Map<Long, Set<Long>> neighbours = new HashMap<>();
    int half = shares >> 1;
    for (int i = 0; i < n; i++) {
      Set<Long> s = new HashSet<>();
      for (int off = -half; off <= half; off++) {
        s.add(ids.get(Math.floorMod(i + off, n)));
      }
      neighbours.put(ids.get(i), s);
    }

    // setup
    Map<String, Object> setup = new LinkedHashMap<>();
    setup.put(Keys.STAGE, Stage.SETUP.wire());
    setup.put(Keys.SAMPLE_NUMBER, (long) n);
    setup.put(Keys.SHARE_NUMBER, (long) shares);
    setup.put(Keys.THRESHOLD, (long) threshold);
    setup.put(Keys.CLIPPING_RANGE, settings.clippingRange());
    setup.put(Keys.TARGET_RANGE, settings.quantizationRange());
    setup.put(Keys.MOD_RANGE, settings.modulusRange());
    setup.put(Keys.MAX_WEIGHT, settings.maxWeight());
    Map<Long, RecordDict> out = new LinkedHashMap<>();
    for (long id : ids) {
      out.put(id, configs(new LinkedHashMap<>(setup)));
    }
    Map<Long, byte[][]> publicKeys = new HashMap<>();
    Set<Long> active = new LinkedHashSet<>();
    Set<ByteArrayKey> seenKeys = new HashSet<>();
    for (Map.Entry<Long, RecordDict> e : replies(nodes, Stage.SETUP, out, failures).entrySet()) {
      try {
        ConfigRecord c = configsOf(e.getValue());
        if (!(c.get(Keys.PUBLIC_KEY_1) instanceof byte[] pk1)
            || !(c.get(Keys.PUBLIC_KEY_2) instanceof byte[] pk2)) {
          throw new SecAggPlusException("no pk1/pk2 bytes in the setup reply");
        }
        FlowerCrypto.publicKey(pk1);
        FlowerCrypto.publicKey(pk2);
        if (!seenKeys.add(new ByteArrayKey(pk1)) | !seenKeys.add(new ByteArrayKey(pk2))) {
          throw new SecAggPlusException("a public key another node also sent");
        }
        publicKeys.put(e.getKey(), new byte[][] {pk1, pk2});
        active.add(e.getKey());
      } catch (SecAggPlusException | GeneralSecurityException ex) {
        drop(nodes, failures, e.getKey(), "setup: " + ex.getMessage());
      }
    }
    checkThreshold(Stage.SETUP, active, neighbours, active, threshold);

    // share_keys
    out.clear();
    for (long id : active) {
      Map<String, Object> c = new LinkedHashMap<>();
      for (long nb : ids) {
        if (neighbours.get(id).contains(nb) && active.contains(nb)) {
          c.put(Long.toUnsignedString(nb), List.of(publicKeys.get(nb)[0], publicKeys.get(nb)[1]));
        }
      }
      c.put(Keys.STAGE, Stage.SHARE_KEYS.wire());
      out.put(id, configs(c));
    }
    Map<Long, List<byte[]>> fwdCtxts = new HashMap<>();
    Map<Long, List<Long>> fwdSrcs = new HashMap<>();
    Set<Long> shared = new LinkedHashSet<>();
    Map<Long, RecordDict> shareReplies = replies(nodes, Stage.SHARE_KEYS, out, failures);
    for (Map.Entry<Long, RecordDict> e : shareReplies.entrySet()) {
      long src = e.getKey();
      try {
        ConfigRecord c = configsOf(e.getValue());
        List<Long> dsts = ConfigValues.nodeIds(c, Keys.DESTINATION_LIST);
        List<byte[]> ctxts = ConfigValues.bytesList(c, Keys.CIPHERTEXT_LIST);
        if (dsts.size() != ctxts.size() || new HashSet<>(dsts).size() != dsts.size()) {
          throw new SecAggPlusException(dsts.size() + " destinations for " + ctxts.size()
              + " ciphertexts, or one repeated");
        }
        for (long d : dsts) {
          if (!neighbours.get(src).contains(d) || d == src) {
            throw new SecAggPlusException("a ciphertext for node " + Long.toUnsignedString(d)
                + ", not a neighbour");
          }
        }
        for (int i = 0; i < dsts.size(); i++) {
          fwdCtxts.computeIfAbsent(dsts.get(i), k -> new ArrayList<>()).add(ctxts.get(i));
          fwdSrcs.computeIfAbsent(dsts.get(i), k -> new ArrayList<>()).add(src);
        }
        shared.add(src);
      } catch (SecAggPlusException ex) {
        drop(nodes, failures, src, "share_keys: " + ex.getMessage());
      }
    }
    active = new LinkedHashSet<>(shared);
    checkThreshold(Stage.SHARE_KEYS, active, neighbours, active, threshold);

    // collect_masked_vectors
    out.clear();
    for (long id : active) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put(Keys.STAGE, Stage.COLLECT_MASKED_VECTORS.wire());
      List<byte[]> ctxts = new ArrayList<>();
      List<Object> srcs = new ArrayList<>();
      List<Long> from = fwdSrcs.getOrDefault(id, List.of());
      for (int i = 0; i < from.size(); i++) {
        if (active.contains(from.get(i))) {
          ctxts.add(fwdCtxts.get(id).get(i));
          srcs.add(ConfigValues.nodeIdValue(from.get(i)));
        }
      }
      c.put(Keys.CIPHERTEXT_LIST, ctxts);
      c.put(Keys.SOURCE_LIST, srcs);
      LinkedHashMap<String, Record> content = new LinkedHashMap<>();
      RecordDict fit = fitIns.get(id);
      if (fit != null) {
        content.putAll(fit.records());
      }
      content.put(Keys.RECORD_CONFIGS, new ConfigRecord(c));
      out.put(id, new RecordDict(content));
    }
    List<long[]> sum = null;
    List<long[]> vectorShapes = expected;
    Map<Long, RecordDict> survivorsReplies = new LinkedHashMap<>();
    for (Map.Entry<Long, RecordDict> e : replies(nodes, Stage.COLLECT_MASKED_VECTORS, out,
        failures).entrySet()) {
      try {
        List<byte[]> vec = ConfigValues.bytesList(configsOf(e.getValue()),
            Keys.MASKED_PARAMETERS);
        List<long[]> values = new ArrayList<>();
        List<long[]> dims = new ArrayList<>();
        long elements = 0;
        for (byte[] b : vec) {
          Tensor t = Npy.fromBytes(b);
          elements += t.size();
          if (elements > MAX_ELEMENTS) {
            throw new SecAggPlusException("a masked vector over " + MAX_ELEMENTS + " elements");
          }
          long[] v = new long[Math.toIntExact(t.size())];
          for (int i = 0; i < v.length; i++) {
            v[i] = t.getLong(i);
          }
          values.add(v);
          dims.add(t.shape().dims());
        }
        if (values.isEmpty() || values.getFirst().length != 1) {
          throw new SecAggPlusException("a masked vector without its weight first");
        }
        if (vectorShapes != null && !sameShapes(vectorShapes, dims)) {
          throw new SecAggPlusException(expected != null
              ? "a masked vector of other shapes than the model's"
              : "a masked vector of other shapes than the first");
        }
        if (sum == null) {
          sum = values;
          vectorShapes = dims;
        } else {
          for (int i = 0; i < sum.size(); i++) {
            long[] s = sum.get(i);
            long[] v = values.get(i);
            for (int j = 0; j < s.length; j++) {
              s[j] += v[j];
            }
          }
        }
        survivorsReplies.put(e.getKey(), e.getValue());
      } catch (SecAggPlusException | NpyException | IllegalArgumentException
          | UnsupportedOperationException ex) {
        drop(nodes, failures, e.getKey(), "collect_masked_vectors: " + ex.getMessage());
      }
    }
    Set<Long> survivors = survivorsReplies.keySet();
    Set<Long> dead = new LinkedHashSet<>(active);
    dead.removeAll(survivors);
    // every secret to recover, a survivor's seed or a dropped node's key, needs live holders
    checkThreshold(Stage.COLLECT_MASKED_VECTORS, active, neighbours, survivors, threshold);
    if (sum == null) {
      throw new SecAggPlusRoundException("collect_masked_vectors: no masked vector came back");
    }

    // unmask
    out.clear();
    for (long id : survivors) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put(Keys.STAGE, Stage.UNMASK.wire());
      c.put(Keys.ACTIVE_NODE_ID_LIST, neighbours.get(id).stream().filter(survivors::contains)
          .map(ConfigValues::nodeIdValue).toList());
      c.put(Keys.DEAD_NODE_ID_LIST, neighbours.get(id).stream().filter(dead::contains)
          .map(ConfigValues::nodeIdValue).toList());
      out.put(id, configs(c));
    }
    Map<Long, List<byte[]>> collected = new HashMap<>();
    for (Map.Entry<Long, RecordDict> e : replies(nodes, Stage.UNMASK, out, failures)
        .entrySet()) {
      try {
        ConfigRecord c = configsOf(e.getValue());
        List<Long> owners = ConfigValues.nodeIds(c, Keys.NODE_ID_LIST);
        List<byte[]> s = ConfigValues.bytesList(c, Keys.SHARE_LIST);
        if (owners.size() != s.size()) {
          throw new SecAggPlusException(owners.size() + " node ids for " + s.size() + " shares");
        }
        for (int i = 0; i < owners.size(); i++) {
          long owner = owners.get(i);
          // only a neighbour holds a share, and one share each
          if (neighbours.get(e.getKey()).contains(owner)
              && (survivors.contains(owner) || dead.contains(owner))) {
            collected.computeIfAbsent(owner, k -> new ArrayList<>()).add(s.get(i));
          }
        }
      } catch (SecAggPlusException ex) {
        drop(nodes, failures, e.getKey(), "unmask: " + ex.getMessage());
      }
    }
    long[] sizes = sum.stream().mapToLong(a -> a.length).toArray();
    long mod = settings.modulusRange();
    try {
      for (long owner : concat(survivors, dead)) {
        List<byte[]> sh = collected.getOrDefault(owner, List.of());
        if (sh.size() < threshold) {
          throw new SecAggPlusRoundException("unmask: " + sh.size() + " shares of node "
              + Long.toUnsignedString(owner) + "'s secret, " + threshold + " needed");
        }
        byte[] secret = ShamirGf128.combine(sh);
        if (survivors.contains(owner)) {
          add(sum, NumpyMasks.masks(secret, mod, sizes), -1);
        } else {
          PrivateKey sk1 = FlowerCrypto.privateKey(secret);
          for (long s : survivors) {
            if (fwdSrcs.getOrDefault(s, List.of()).contains(owner)
                && neighbours.get(owner).contains(s)) {
              byte[] key = FlowerCrypto.sharedKey(sk1, FlowerCrypto.publicKey(
                  publicKeys.get(s)[0]));
              add(sum, NumpyMasks.masks(key, mod, sizes),
                  Long.compareUnsigned(owner, s) > 0 ? 1 : -1);
            }
          }
        }
      }
    } catch (IllegalArgumentException | GeneralSecurityException ex) {
      throw new SecAggPlusRoundException("unmask: a secret does not recover: " + ex.getMessage());
    }
    long qTotal = Quantization.mod(sum.getFirst()[0], mod);
    if (qTotal <= 0) {
      throw new SecAggPlusRoundException("unmask: the survivors' total weight is 0");
    }
    double scale = (double) settings.quantizationRange() / qTotal;
    double offset = -(survivors.size() - 1) * settings.clippingRange();
    List<Tensor> mean = new ArrayList<>();
    for (int i = 1; i < sum.size(); i++) {
      long[] v = sum.get(i);
      for (int j = 0; j < v.length; j++) {
        v[j] = Quantization.mod(v[j], mod);
      }
      double[] d = Quantization.dequantize(v, settings.clippingRange(),
          settings.quantizationRange());
      for (int j = 0; j < d.length; j++) {
        d[j] = (d[j] + offset) * scale;
      }
      mean.add(Tensor.ofDoubles(Shape.of(vectorShapes.get(i)), d));
    }
    // the summed weights are the survivors' quantized example ratios (count / max weight)
    double totalWeight = (double) qTotal / settings.quantizationRange() * settings.maxWeight();
    return new SecAggPlusResult(mean, totalWeight, survivors, survivorsReplies, failures);
  }

  private static List<Long> concat(Set<Long> a, Set<Long> b) {
    List<Long> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static boolean sameShapes(List<long[]> a, List<long[]> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!Arrays.equals(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static void add(List<long[]> sum, List<long[]> masks, int sign) {
    for (int i = 0; i < sum.size(); i++) {
      long[] s = sum.get(i);
      long[] m = masks.get(i);
      for (int j = 0; j < s.length; j++) {
        s[j] += sign * m[j];
      }
    }
  }

  private static Map<Long, RecordDict> replies(Nodes nodes, Stage stage,
      Map<Long, RecordDict> out, Map<Long, String> failures) {
    Map<Long, RecordDict> in = nodes.train(stage.wire(), Map.copyOf(out));
    Map<Long, RecordDict> kept = new LinkedHashMap<>();
    for (long id : out.keySet()) {
      RecordDict r = in == null ? null : in.get(id);
      if (r == null) {
        if (!failures.containsKey(id)) {
          drop(nodes, failures, id, stage.wire() + ": no reply");
        }
      } else {
        kept.put(id, r);
      }
    }
    return kept;
  }

  private static void drop(Nodes nodes, Map<Long, String> failures, long id, String why) {
    failures.put(id, why);
    nodes.dropped(id, why);
  }

  private static void checkThreshold(Stage stage, Set<Long> ids,
      Map<Long, Set<Long>> neighbours, Set<Long> active, int threshold)
      throws SecAggPlusRoundException {
    for (long id : ids) {
      long live = neighbours.get(id).stream().filter(active::contains).count();
      if (live < threshold) {
        throw new SecAggPlusRoundException(stage.wire() + ": node " + Long.toUnsignedString(id)
            + " has " + live + " live neighbours, " + threshold + " needed");
      }
    }
  }

  private static RecordDict configs(Map<String, Object> c) {
    return RecordDict.of(Keys.RECORD_CONFIGS, new ConfigRecord(c));
  }

  private static ConfigRecord configsOf(RecordDict content) throws SecAggPlusException {
    if (content.get(Keys.RECORD_CONFIGS) instanceof ConfigRecord c) {
      return c;
    }
    throw new SecAggPlusException("the reply has no ConfigRecord '" + Keys.RECORD_CONFIGS + "'");
  }

  /** Byte arrays compared by content, for the duplicate-key check. */
  private record ByteArrayKey(byte[] b) {
    @Override
    public boolean equals(Object o) {
      return o instanceof ByteArrayKey k && Arrays.equals(b, k.b);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(b);
    }
  }
}
