package io.tributary.flower.app.mod;

import io.tributary.flower.app.Context;
import io.tributary.flower.app.MessageHandler;
import io.tributary.flower.app.Mod;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.secaggplus.internal.Keys;
import io.tributary.flower.secaggplus.internal.SecAggPlusClient;
import io.tributary.flower.secaggplus.internal.SecAggPlusException;
import io.tributary.flower.secaggplus.internal.Stage;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.NpyException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Flower's {@code secaggplus_mod}: the client side of Flower's {@code SecAggPlusWorkflow}, byte
 * for byte as Flower 1.27 speaks it, so a Java ClientApp takes part in a SecAgg+ round beside
 * Python nodes. Every {@code train} message carries the {@code secaggplus_configs} ConfigRecord
 * with its {@code stage}; the mod answers {@code setup}, {@code share_keys} and {@code unmask}
 * itself and runs the app only in {@code collect_masked_vectors}, whose reply (Flower's
 * DefaultWorkflow layout: {@code fitres.parameters}, {@code fitres.num_examples}) it replaces by
 * the masked, quantized, weighted update. Other messages pass through.
 *
 * <p>A malformed, replayed or out-of-order stage message gets an error reply (Flower's
 * {@code CLIENT_APP_RAISED_EXCEPTION}, the reason naming what was wrong) and leaves this node's
 * protocol state as it was; the node goes on serving. The state is kept per run and node in the
 * mod instance (the last {@value #MAX_RUNS} runs).
 */
public final class SecAggPlusMod implements Mod {
  /** How many runs' protocol state one mod keeps. */
  public static final int MAX_RUNS = 64;

  private final SecureRandom random;
  private final Map<List<Long>, SecAggPlusClient> clients =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<Long>, SecAggPlusClient> eldest) {
          return size() > MAX_RUNS;
        }
      };

  public SecAggPlusMod() {
    this(new SecureRandom());
  }

  /** A mod drawing its keys, seeds and rounding from {@code random}. */
  public SecAggPlusMod(SecureRandom random) {
    this.random = java.util.Objects.requireNonNull(random, "random");
  }

  @Override
  public Message apply(Message message, Context context, MessageHandler next) throws Exception {
    if (!message.metadata().messageType().equals("train")) {
      return next.handle(message, context);
    }
    SecAggPlusClient client;
    synchronized (clients) {
      client = clients.computeIfAbsent(
          List.of(message.metadata().runId(), message.metadata().dstNodeId()),
          k -> new SecAggPlusClient(random));
    }
    synchronized (client) {
      try {
        return step(client, message, context, next);
      } catch (SecAggPlusException e) {
        return message.replyError(new MessageError(MessageError.CLIENT_APP_RAISED_EXCEPTION,
            "secaggplus_mod: " + e.getMessage()));
      }
    }
  }

  private static Message step(SecAggPlusClient client, Message message, Context context,
      MessageHandler next) throws Exception {
    if (!(message.content().get(Keys.RECORD_CONFIGS) instanceof ConfigRecord configs)) {
      throw new SecAggPlusException("the train message has no ConfigRecord '"
          + Keys.RECORD_CONFIGS + "' (is the ServerApp's fit workflow SecAggPlusWorkflow?)");
    }
    Stage stage = client.check(configs);
    LinkedHashMap<String, Record> out = new LinkedHashMap<>();
    Map<String, Object> res;
    if (stage == Stage.COLLECT_MASKED_VECTORS) {
      SecAggPlusClient.Received received = client.receive(configs);
      Message reply = next.handle(message, context);
      if (!reply.hasContent()) {
        return reply;
      }
      RecordDict content = reply.content();
      res = client.mask(received, numExamples(content), parameters(content));
      // As Flower's mod: the app's records stay, its arrays are emptied.
      content.records().forEach((k, v) -> out.put(k,
          v instanceof ArrayRecord ? new ArrayRecord(Map.of()) : v));
    } else {
      res = switch (stage) {
        case SETUP -> client.setup(message.metadata().dstNodeId(), configs);
        case SHARE_KEYS -> client.shareKeys(configs);
        case UNMASK -> client.unmask(configs);
        case COLLECT_MASKED_VECTORS -> throw new IllegalStateException("handled above");
      };
    }
    out.put(Keys.RECORD_CONFIGS, new ConfigRecord(res));
    return message.reply(new RecordDict(out));
  }

  private static long numExamples(RecordDict content) throws SecAggPlusException {
    if (content.get("fitres.num_examples") instanceof MetricRecord m
        && m.get("num_examples") instanceof Long n) {
      return n;
    }
    throw new SecAggPlusException("the app's reply has no 'fitres.num_examples' (SecAgg+ "
        + "works on Flower's DefaultWorkflow layout, e.g. a LegacyClientApp)");
  }

  private static List<Tensor> parameters(RecordDict content) throws SecAggPlusException {
    if (!(content.get("fitres.parameters") instanceof ArrayRecord r)) {
      throw new SecAggPlusException("the app's reply has no ArrayRecord 'fitres.parameters'");
    }
    List<Tensor> out = new ArrayList<>();
    for (Map.Entry<String, io.tributary.flower.records.Array> e : r.arrays().entrySet()) {
      if (e.getValue().data().length == 0) {
        continue;
      }
      try {
        out.add(Npy.fromBytes(e.getValue().data()));
      } catch (NpyException ex) {
        throw new SecAggPlusException("array '" + e.getKey()
            + "' of the app's reply is not NPY data: " + ex.getMessage());
      }
    }
    return out;
  }
}
