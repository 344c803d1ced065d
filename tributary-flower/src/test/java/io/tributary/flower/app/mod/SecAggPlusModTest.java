package io.tributary.flower.app.mod;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.app.LegacyClientApp;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SecAggPlusMod} against stage messages shaped as Flower's {@code SecAggPlusWorkflow}
 * sends them, three nodes in the JVM: broken, replayed and out-of-order messages get an error
 * reply and leave the node able to go on. (Byte compatibility with Flower itself is
 * {@code SecAggPlusFlowerExampleTest}'s.)
 */
class SecAggPlusModTest {
  private static final long RUN = 7;
  private static final long[] NODES = {11, 22, -5};
  private final AtomicInteger ids = new AtomicInteger();
  private final AtomicInteger trained = new AtomicInteger();
  private final List<ClientApp> apps = new ArrayList<>();
  private final List<Context> contexts = new ArrayList<>();

  @BeforeEach
  void nodes() throws Exception {
    for (long node : NODES) {
      FlowerClient client = new FlowerClient() {
        @Override
        public Map<String, io.tributary.flower.Scalar> getProperties(
            Map<String, io.tributary.flower.Scalar> config) {
          return Map.of();
        }

        @Override
        public FitRes fit(io.tributary.flower.FitIns ins) {
          trained.incrementAndGet();
          return new FitRes(List.of(Tensor.ofFloats(Shape.of(2), 0.5f, -0.25f)), 3, Map.of());
        }
      };
      apps.add(LegacyClientApp.of(client).withMods(new SecAggPlusMod()));
      contexts.add(new Context(RUN, node, Map.of(), Map.of(), RecordDict.empty()));
    }
  }

  private Message train(int node, Map<String, Record> records) {
    Metadata md = new Metadata(RUN, "m" + ids.incrementAndGet(), 0, NODES[node], "", "1", 600,
        "train", System.currentTimeMillis() / 1000.0);
    return Message.ofContent(md, new RecordDict(records));
  }

  private Message send(int node, Map<String, Object> configs) {
    return send(node, configs, Map.of());
  }

  private Message send(int node, Map<String, Object> configs, Map<String, Record> more) {
    Map<String, Record> records = new LinkedHashMap<>(more);
    records.put("secaggplus_configs", new ConfigRecord(configs));
    return apps.get(node).handle(train(node, records), contexts.get(node));
  }

  private static Map<String, Object> setupConfigs() {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("stage", "setup");
    c.put("sample_num", 3L);
    c.put("share_num", 3L);
    c.put("threshold", 2L);
    c.put("clipping_range", 8.0);
    c.put("target_range", 1L << 22);
    c.put("mod_range", 1L << 32);
    c.put("max_weight", 1000.0);
    return c;
  }

  private static ConfigRecord configs(Message reply) {
    assertThat(reply.hasContent()).as("%s", reply).isTrue();
    return (ConfigRecord) reply.content().get("secaggplus_configs");
  }

  private static String error(Message reply) {
    assertThat(reply.hasContent()).as("%s", reply).isFalse();
    MessageError e = reply.error().orElseThrow();
    assertThat(e.code()).isEqualTo(MessageError.CLIENT_APP_RAISED_EXCEPTION);
    return e.reason();
  }

  private static Object nodeId(long bits) {
    return bits >= 0 ? (Object) bits
        : new java.math.BigInteger(Long.toUnsignedString(bits));
  }

  /** Setup on every node; the share_keys configs each node then gets. */
  private List<Map<String, Object>> setupAll() {
    Map<String, Object> keys = new LinkedHashMap<>();
    for (int i = 0; i < NODES.length; i++) {
      ConfigRecord r = configs(send(i, setupConfigs()));
      keys.put(Long.toUnsignedString(NODES[i]), List.of(r.get("pk1"), r.get("pk2")));
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < NODES.length; i++) {
      Map<String, Object> c = new LinkedHashMap<>(keys);
      c.put("stage", "share_keys");
      out.add(c);
    }
    return out;
  }

  /** The collect_masked_vectors configs of node {@code dst} from the share_keys replies. */
  private static Map<String, Object> forward(List<ConfigRecord> shareReplies, int dst) {
    List<byte[]> ctxts = new ArrayList<>();
    List<Object> srcs = new ArrayList<>();
    for (int src = 0; src < shareReplies.size(); src++) {
      ConfigRecord r = shareReplies.get(src);
      List<?> dsts = (List<?>) r.get("dsts");
      for (int j = 0; j < dsts.size(); j++) {
        if (dsts.get(j).equals(nodeId(NODES[dst]))) {
          ctxts.add((byte[]) ((List<?>) r.get("ctxts")).get(j));
          srcs.add(nodeId(NODES[src]));
        }
      }
    }
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("stage", "collect_masked_vectors");
    c.put("ctxts", ctxts);
    c.put("srcs", srcs);
    return c;
  }

  private static Map<String, Record> fitins() throws Exception {
    return Map.of("fitins.parameters", new ArrayRecord(Map.of("0",
        new io.tributary.flower.records.Array("", new int[0], "numpy.ndarray",
            Npy.toBytes(Tensor.ofFloats(Shape.of(2), 0f, 0f))))),
        "fitins.config", new ConfigRecord(Map.of()));
  }

  @Test
  void apply_wholeProtocol_repliesMaskedInt64VectorsAndUnmaskShares() throws Exception {
    List<Map<String, Object>> share = setupAll();
    List<ConfigRecord> replies = new ArrayList<>();
    for (int i = 0; i < NODES.length; i++) {
      replies.add(configs(send(i, share.get(i))));
      assertThat((List<?>) replies.get(i).get("dsts")).hasSize(2);
    }
    for (int i = 0; i < NODES.length; i++) {
      Message reply = send(i, forward(replies, i), fitins());
      List<?> masked = (List<?>) configs(reply).get("masked_params");
      assertThat(masked).hasSize(2);
      Tensor weight = Npy.fromBytes((byte[]) masked.get(0));
      assertThat(weight.dtype().toString().toLowerCase()).contains("int64");
      assertThat(weight.shape().dims()).containsExactly(1);
      assertThat(Npy.fromBytes((byte[]) masked.get(1)).shape().dims()).containsExactly(2);
      // the app's arrays are emptied, its other records kept, as Flower's mod does
      assertThat(((ArrayRecord) reply.content().get("fitres.parameters")).size()).isZero();
      assertThat(reply.content().get("fitres.num_examples")).isNotNull();
    }
    assertThat(trained).hasValue(3);
    Map<String, Object> unmask = new LinkedHashMap<>();
    unmask.put("stage", "unmask");
    unmask.put("active_nids", List.of(nodeId(NODES[0]), nodeId(NODES[1])));
    unmask.put("dead_nids", List.of(nodeId(NODES[2])));
    ConfigRecord shares = configs(send(0, unmask));
    assertThat(new ArrayList<Object>((List<?>) shares.get("nids"))).containsExactly(nodeId(NODES[0]), nodeId(NODES[1]),
        nodeId(NODES[2]));
    assertThat((List<?>) shares.get("shares")).hasSize(3);
    // replayed unmask: out of order now
    assertThat(error(send(0, unmask))).contains("expect setup stage, but receive unmask");
  }

  @Test
  void apply_outOfOrderOrReplayedStage_errorReplyAndTheNodeGoesOn() {
    List<Map<String, Object>> share = setupAll();
    assertThat(error(send(0, Map.of("stage", "unmask", "active_nids", List.of(),
        "dead_nids", List.of())))).contains("expect share_keys stage, but receive unmask");
    ConfigRecord first = configs(send(0, share.get(0)));
    assertThat(first.get("ctxts")).isNotNull();
    assertThat(error(send(0, share.get(0))))
        .contains("expect collect_masked_vectors stage, but receive share_keys");
    assertThat(trained).hasValue(0);
    // a new setup restarts at any time, as Flower's does
    assertThat(configs(send(0, setupConfigs())).get("pk1")).isInstanceOf(byte[].class);
  }

  @Test
  void apply_malformedStageMessages_errorReplyNamingTheProblem() throws Exception {
    Map<String, Object> badType = setupConfigs();
    badType.put("threshold", "two");
    assertThat(error(send(0, badType))).contains("threshold").contains("int");
    Map<String, Object> missing = setupConfigs();
    missing.remove("mod_range");
    assertThat(error(send(0, missing))).contains("'mod_range' is missing");
    Map<String, Object> huge = setupConfigs();
    huge.put("share_num", 1L << 40);
    assertThat(error(send(0, huge))).contains("share_num");
    assertThat(error(send(0, Map.of("stage", "dance")))).contains("unknown SecAgg+ stage");
    assertThat(error(apps.get(0).handle(train(0, fitins()), contexts.get(0))))
        .contains("secaggplus_configs");

    List<Map<String, Object>> share = setupAll();
    Map<String, Object> notKeys = new LinkedHashMap<>(share.get(1));
    notKeys.put("12", List.of("a", "b"));
    assertThat(error(send(1, notKeys))).contains("list of two bytes");
    Map<String, Object> foreignOwn = new LinkedHashMap<>(share.get(1));
    foreignOwn.put("22", share.get(1).get("11"));
    assertThat(error(send(1, foreignOwn))).contains("identical");
    List<ConfigRecord> replies = new ArrayList<>();
    for (int i = 0; i < NODES.length; i++) {
      replies.add(configs(send(i, share.get(i))));
    }
    Map<String, Object> tampered = forward(replies, 0);
    List<byte[]> ctxts = new ArrayList<>();
    for (Object o : (List<?>) tampered.get("ctxts")) {
      byte[] c = ((byte[]) o).clone();
      c[40] = (byte) (c[40] == 'A' ? 'B' : 'A');
      ctxts.add(c);
    }
    tampered.put("ctxts", ctxts);
    assertThat(error(send(0, tampered, fitins()))).contains("does not decrypt");
    Map<String, Object> swapped = forward(replies, 0);
    swapped.put("srcs", List.of(((List<?>) swapped.get("srcs")).get(1),
        ((List<?>) swapped.get("srcs")).get(0)));
    assertThat(error(send(0, swapped, fitins()))).contains("does not decrypt");
    assertThat(trained).hasValue(0);
    // the node still takes the genuine message
    assertThat(configs(send(0, forward(replies, 0), fitins())).get("masked_params")).isNotNull();
    assertThat(trained).hasValue(1);
  }

  @Test
  void apply_nonTrainMessage_passesThroughUntouched() throws Exception {
    Metadata md = new Metadata(RUN, "q", 0, NODES[0], "", "1", 600, "get_properties", 0);
    Message reply = apps.get(0).handle(Message.ofContent(md, new RecordDict(Map.of(
        "getpropertiesins.config", new ConfigRecord(Map.of())))), contexts.get(0));
    assertThat(reply.hasContent()).isTrue();
    assertThat(reply.content().get("secaggplus_configs")).isNull();
  }
}
