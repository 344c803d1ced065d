package io.tributary.flower.server.internal;

import io.tributary.core.computation.Computation;
import io.tributary.flower.Scalar;
import io.tributary.flower.passes.ComputationSpec;
import io.tributary.flower.passes.JoinPassLayout;
import io.tributary.flower.passes.PassNodes;
import io.tributary.flower.passes.SecurePassMessages;
import io.tributary.flower.passes.SecurePassProtocol;
import io.tributary.flower.passes.SecurePassReplyException;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.learning.LearningProcess;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.PassEngine;
import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.PassInputs;
import io.tributary.runtime.PassPart;
import io.tributary.runtime.PassRequest;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.SecurePass;
import io.tributary.runtime.SecureSumSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's pass engine when its computation sums securely: a pass with a secure sum runs on
 * the sampled nodes (each replays its own client from the pass's client-side inputs, with the
 * computation it rebuilds, and enters its secure-sum input into the {@link SecurePassProtocol}),
 * so that the server learns only the survivors' sum; a pass without one runs here as it always
 * has, each client's work a message to its node, whose update the server sees in the clear
 * anyway. A node is a Fleet node, sent each stage as a Fleet message, or a Join client, sent it
 * in a FitIns ({@link RemoteClient#message}); both may take part in one pass.
 */
final class NodePassEngine implements PassEngine {
  private static final Logger LOG = LoggerFactory.getLogger(NodePassEngine.class);

  private final SecurePassProtocol protocol;
  private final SecureAggregation settings;
  private final LearningProcess process;
  private final Map<String, Object> spec;
  private final RuntimeOptions local;
  private final ConnectedClients population;
  private final Optional<Duration> timeout;
  private final Duration capabilityWait;
  /** The nodes asked whether they run client passes: by id, why not (empty when they do). */
  private final Map<String, Optional<String>> asked = new java.util.HashMap<>();

  /**
   * @param spec the computation's spec, which every node rebuilds the process from
   * @param local the server's runtime options (without this engine), for the passes that run
   *     here and the seed and weight bound a node's replay takes
   * @param capable the nodes that stated before the first round that they run client passes
   * @param capabilityWait how long a node that connected later is given to say whether it does
   */
  NodePassEngine(SecurePassProtocol protocol, SecureAggregation settings,
      LearningProcess process, ComputationSpec spec, RuntimeOptions local,
      ConnectedClients population, Optional<Duration> timeout, List<String> capable,
      Duration capabilityWait) {
    capable.forEach(id -> asked.put(id, Optional.empty()));
    this.capabilityWait = capabilityWait;
    this.protocol = protocol;
    this.settings = settings;
    this.process = process;
    this.spec = SecurePassMessages.values(spec.toConfig());
    this.local = local.withoutPassEngine();
    this.population = population;
    this.timeout = timeout;
  }

  @Override
  public boolean runsSecureSums() {
    return true;
  }

  /** A pass without a secure sum: replayed here, each client's work a message to its node. */
  @Override
  public List<PassPart> run(PassRequest request) {
    if (request.groups() == 0) {
      return List.of();
    }
    try (ExecutionContext ctx = ExecutionContext.create(local)) {
      return List.of(ctx.computePassPart(request.computation(), request.arguments(),
          request.pass(), request.earlier(), 0, request.groups()));
    }
  }

  @Override
  public SecurePass runSecure(PassRequest request, SecureSumSpec sums) {
    boolean next = request.computation() == process.next();
    if (!next && request.computation() != process.evaluate()) {
      throw new PassEngineException("pass " + request.pass() + " is of a computation that is "
          + "neither the round's nor the evaluation's, which no node rebuilds", null);
    }
    List<RemoteClient> clients = next ? population.fitClients()
        : population.evaluationClients();
    if (clients.size() != request.clients()) {
      throw new PassEngineException("pass " + request.pass() + " has " + request.clients()
          + " clients, the round's cohort " + clients.size(), null);
    }
    PassInputs inputs = request.clientInputs();
    Nodes nodes = new Nodes(clients, inputs, next, request.pass(),
        String.valueOf(population.currentRound()), population.roundFitConfig(),
        unable(clients));
    SecurePass result = protocol.run(request, sums, settings, nodes);
    LOG.info("pass {}: {} summed the inputs of {} of {} nodes", request.pass(),
        protocol.name(), result.survivors().length, clients.size());
    return result;
  }

  /**
   * Of {@code clients}, by index, those that cannot run client passes, with why: a node that
   * connected after the first round's capability query is asked now, once.
   */
  private Map<Integer, String> unable(List<RemoteClient> clients) {
    List<RemoteClient> unasked = clients.stream().filter(c -> !asked.containsKey(c.id()))
        .toList();
    if (!unasked.isEmpty()) {
      java.util.SortedMap<String, String> no = ClientPassesQuery.incapable(unasked,
          capabilityWait);
      unasked.forEach(c -> asked.put(c.id(), Optional.ofNullable(no.get(c.id()))));
    }
    Map<Integer, String> out = new LinkedHashMap<>();
    for (int c = 0; c < clients.size(); c++) {
      int client = c;
      asked.get(clients.get(c).id()).ifPresent(why -> out.put(client, why));
    }
    return out;
  }

  /** The pass's nodes as the protocol sees them. */
  private final class Nodes implements PassNodes {
    private final List<RemoteClient> clients;
    private final PassInputs inputs;
    private final boolean next;
    private final int pass;
    private final String group;
    private final Map<String, Object> fitConfig;
    /** The clients whose nodes cannot run client passes, with why: never sent a stage. */
    private final Map<Integer, String> unable;

    Nodes(List<RemoteClient> clients, PassInputs inputs, boolean next, int pass, String group,
        Map<String, Scalar> fitConfig, Map<Integer, String> unable) {
      this.unable = unable;
      this.clients = clients;
      this.inputs = inputs;
      this.next = next;
      this.pass = pass;
      this.group = group;
      this.fitConfig = SecurePassMessages.values(fitConfig);
    }

    @Override
    public int clients() {
      return clients.size();
    }

    @Override
    public String node(int client) {
      return clients.get(client).id();
    }

    @Override
    public Map<Integer, Reply> exchange(String stage, Map<Integer, Map<String, Object>> messages,
        boolean withPass) {
      Map<Integer, CompletableFuture<RecordDict>> pending = new LinkedHashMap<>();
      messages.forEach((c, values) -> {
        if (unable.containsKey(c)) {
          dropped(c, stage, "cannot run client passes: " + unable.get(c));
          return;
        }
        RemoteClient node = clients.get(c);
        try {
          pending.put(c, node.message(SecurePassMessages.MESSAGE_TYPE,
              content(c, values, withPass), group, timeout));
        } catch (IllegalStateException e) {
          dropped(c, stage, e.getMessage());
        }
      });
      Map<Integer, Reply> out = new LinkedHashMap<>();
      for (Map.Entry<Integer, CompletableFuture<RecordDict>> e : pending.entrySet()) {
        int c = e.getKey();
        RemoteClient node = clients.get(c);
        RecordDict reply;
        // The pass waits for this answer now: a Join stream reads it even if the server's
        // inbound budget is spent.
        node.expedite();
        try {
          reply = e.getValue().get();
        } catch (ExecutionException ex) {
          Throwable why = ex.getCause() == null ? ex : ex.getCause();
          if (why instanceof JoinPassLayout.MalformedException m) {
            // A Join client's FitRes that is no stage's reply: malformed, as a Fleet reply
            // without the stage's record.
            throw new SecurePassReplyException(node(c), stage, m.getMessage(), m);
          }
          dropped(c, stage, why.getMessage() == null ? why.getClass().getSimpleName()
              : why.getMessage());
          continue;
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          throw new PassEngineException("interrupted at stage " + stage + " of pass " + pass,
              ex);
        } finally {
          node.releaseAnswer();
        }
        out.put(c, reply(c, stage, reply, withPass));
      }
      return out;
    }

    private RecordDict content(int c, Map<String, Object> values, boolean withPass) {
      Map<String, Record> records = new LinkedHashMap<>();
      records.put(SecurePassMessages.STAGE_RECORD, new ConfigRecord(values));
      if (withPass) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(SecurePassMessages.COMPUTATION, next ? SecurePassMessages.NEXT
            : SecurePassMessages.EVALUATE);
        p.put(SecurePassMessages.PASS, (long) pass);
        p.put(SecurePassMessages.CLIENT, (long) c);
        p.put(SecurePassMessages.INPUTS, inputs.encode(c, c + 1));
        p.put(SecurePassMessages.SEED, local.seed());
        if (Double.isFinite(local.maxWeight())) {
          p.put(SecurePassMessages.MAX_WEIGHT, local.maxWeight());
          p.put(SecurePassMessages.OVER_WEIGHT, local.overWeight().name());
        }
        records.put(SecurePassMessages.SPEC_RECORD, new ConfigRecord(spec));
        records.put(SecurePassMessages.PASS_RECORD, new ConfigRecord(p));
        records.put(SecurePassMessages.FIT_CONFIG_RECORD, new ConfigRecord(fitConfig));
      }
      return new RecordDict(records);
    }

    private Reply reply(int c, String stage, RecordDict reply, boolean withPass) {
      String node = node(c);
      if (!(reply.get(SecurePassMessages.STAGE_RECORD) instanceof ConfigRecord values)) {
        throw new SecurePassReplyException(node, stage, "no '"
            + SecurePassMessages.STAGE_RECORD + "' config record", null);
      }
      Optional<PassPart> part = Optional.empty();
      if (withPass) {
        if (!(reply.get(SecurePassMessages.PART_RECORD) instanceof ConfigRecord p)) {
          throw new SecurePassReplyException(node, stage, "no '"
              + SecurePassMessages.PART_RECORD + "' config record", null);
        }
        byte[] payload;
        try {
          payload = SecurePassMessages.bytesOf(p.values(), SecurePassMessages.PAYLOAD);
        } catch (IllegalArgumentException e) {
          throw new SecurePassReplyException(node, stage, e.getMessage(), e);
        }
        if (payload.length > SecurePassMessages.MAX_PAYLOAD_BYTES) {
          throw new SecurePassReplyException(node, stage, "a part of " + payload.length
              + " bytes, over " + SecurePassMessages.MAX_PAYLOAD_BYTES, null);
        }
        part = Optional.of(new PassPart(c, c + 1, payload));
      }
      return new Reply(values.values(), part);
    }

    @Override
    public void dropped(int client, String stage, String why) {
      LOG.warn("pass {}: {} dropped out at {}: {}", pass, node(client), stage, why);
    }
  }
}
