package io.tributary.flower.fleet.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.Scalar;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.secaggplus.SecAggPlusResult;
import io.tributary.flower.secaggplus.SecAggPlusRoundException;
import io.tributary.flower.secaggplus.SecAggPlusSettings;
import io.tributary.flower.secaggplus.SecAggPlusWorkflow;
import io.tributary.flower.server.SecureFitProtocol;
import io.tributary.flower.server.internal.ModelSpec;
import io.tributary.flower.server.internal.RemoteClient;
import io.tributary.flower.server.internal.FitRound;
import io.tributary.flower.server.internal.SecureFitRounds;
import io.tributary.learning.rounds.RoundProgress;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Fleet server's secure fit round: Flower's SecAgg+ workflow ({@link SecAggPlusWorkflow})
 * over the round's Fleet nodes, each stage a {@code train} message in the layout Flower's
 * {@code SecAggPlusWorkflow} sends, which Flower's {@code secaggplus_mod} and Tributary's
 * {@code SecAggPlusMod} answer. The collect stage carries the model and fit config as
 * {@code fitins.parameters} and {@code fitins.config}.
 *
 * <p>The round's update is the unmasked example-weighted mean of the survivors' parameters less
 * the model, and its example count the survivors' total weight as the protocol reveals it. A
 * node that times out, leaves, replies with an error or sends a reply the workflow refuses at
 * any stage is excluded, named in the round's exclusions; when too few remain the round fails
 * and reveals nothing.
 */
public final class FleetSecureRound extends SecureFitRounds {
  private static final Logger LOG = LoggerFactory.getLogger(FleetSecureRound.class);

  private final SecAggPlusWorkflow workflow;
  private final Optional<Duration> timeout;

  /** Rounds with {@code settings}, each stage allowed {@code timeout} (none: no limit). */
  public FleetSecureRound(SecAggPlusSettings settings, Optional<Duration> timeout) {
    this.workflow = new SecAggPlusWorkflow(settings);
    this.timeout = timeout;
  }

  @Override
  public String name() {
    return "Flower's SecAgg+";
  }

  @Override
  public int exchanges() {
    return 4;
  }

  @Override
  public synchronized SecureFitProtocol.Outcome run(FitRound fitRound, StructValue model) {
    begin(fitRound);
    List<RemoteClient> clients = fitRound.clients();
    Map<String, Scalar> fitConfig = fitRound.config();
    Map<Long, FleetNode> nodes = new LinkedHashMap<>();
    Set<Long> excluded = new HashSet<>();
    for (RemoteClient c : clients) {
      if (c instanceof FleetNode n) {
        nodes.put(n.nodeId(), n);
      } else {
        exclude(c.id(), "setup: not a Fleet node; Flower's SecAgg+ runs over the Fleet API");
      }
    }
    List<Tensor> tensors = ModelSpec.tensors(model);
    LinkedHashMap<String, Array> arrays = new LinkedHashMap<>();
    for (int i = 0; i < tensors.size(); i++) {
      arrays.put(String.valueOf(i), Array.fromTensor(tensors.get(i)));
    }
    RecordDict fit = DefaultWorkflowLayout.fitIns(new ArrayRecord(arrays), fitConfig);
    Map<Long, RecordDict> fitIns = new LinkedHashMap<>();
    nodes.keySet().forEach(id -> fitIns.put(id, fit));
    Stages stages = new Stages(nodes, excluded, String.valueOf(round));
    SecAggPlusResult result;
    try {
      result = workflow.run(List.copyOf(nodes.keySet()), fitIns, stages,
          tensors.stream().map(t -> t.shape().dims()).toList());
    } catch (SecAggPlusRoundException e) {
      throw new SecureFitProtocol.Failed("Flower's SecAgg+ failed at " + e.getMessage(), e);
    }
    List<Tensor> delta = new ArrayList<>(tensors.size());
    List<Tensor> mean = result.mean();
    if (mean.size() != tensors.size()) {
      throw new SecureFitProtocol.Failed("the survivors sent " + mean.size() + " arrays for a "
          + "model of " + tensors.size(), null);
    }
    for (int i = 0; i < tensors.size(); i++) {
      Tensor sent = tensors.get(i);
      Tensor got = mean.get(i);
      if (!Arrays.equals(sent.shape().dims(), got.shape().dims())) {
        throw new SecureFitProtocol.Failed("the survivors' array " + i + " has shape "
            + got.shape() + ", the model's " + sent.shape(), null);
      }
      double[] d = new double[Math.toIntExact(sent.size())];
      for (int j = 0; j < d.length; j++) {
        d[j] = got.getAsDouble(j) - sent.getAsDouble(j);
      }
      delta.add(TensorMath.fromDoubles(sent.dtype(), sent.shape(), d));
    }
    long examples = Math.max(1, Math.round(result.totalWeight()));
    LOG.info("round {}: Flower's SecAgg+ unmasked the mean of {} of {} nodes ({} examples)",
        round, result.survivors().size(), nodes.size(), examples);
    return new SecureFitProtocol.Outcome(delta, examples, result.survivors().size());
  }

  private void exclude(String client, String why) {
    String line = "SecAgg+: " + client + " dropped out at " + why;
    LOG.warn(line);
    progress.clientFailed(round, client, "dropped out at " + why);
    synchronized (exclusions) {
      exclusions.add(line);
    }
  }

  /** Delivers each stage's messages to the nodes and awaits their replies. */
  private final class Stages implements SecAggPlusWorkflow.Nodes {
    private final Map<Long, FleetNode> nodes;
    private final Set<Long> excluded;
    private final String group;

    Stages(Map<Long, FleetNode> nodes, Set<Long> excluded, String group) {
      this.nodes = nodes;
      this.excluded = excluded;
      this.group = group;
    }

    @Override
    public Map<Long, RecordDict> train(String stage, Map<Long, RecordDict> contents) {
      int r = round;
      RoundProgress p = progress;
      p.stage(r, "SecAgg+ " + stage, contents.size());
      int before;
      synchronized (exclusions) {
        before = exclusions.size();
      }
      Map<Long, CompletableFuture<RecordDict>> pending = new LinkedHashMap<>();
      contents.forEach((id, content) -> {
        FleetNode n = nodes.get(id);
        try {
          pending.put(id, n.train(content, group, timeout));
        } catch (IllegalStateException e) {
          dropped(id, stage + ": " + e.getMessage());
        }
      });
      Map<Long, RecordDict> out = new LinkedHashMap<>();
      for (Map.Entry<Long, CompletableFuture<RecordDict>> e : pending.entrySet()) {
        FleetNode n = nodes.get(e.getKey());
        try {
          out.put(e.getKey(), e.getValue().get());
          p.clientReported(r, n.id());
        } catch (ExecutionException ex) {
          dropped(e.getKey(), stage + ": " + ex.getCause().getMessage());
        } catch (InterruptedException ex) {
          pending.forEach((id, f) -> nodes.get(id).abandonAny(f, "the secure round stopped"));
          Thread.currentThread().interrupt();
          throw new SecureFitProtocol.Failed("interrupted at " + stage, ex);
        }
      }
      List<String> dropped;
      synchronized (exclusions) {
        dropped = List.copyOf(exclusions.subList(before, exclusions.size()));
      }
      p.stageEnded(r, "SecAgg+ " + stage, out.size(), dropped);
      return out;
    }

    @Override
    public void dropped(long node, String why) {
      if (excluded.add(node)) {
        FleetNode n = nodes.get(node);
        exclude(n == null ? "node " + Long.toUnsignedString(node) : n.id(), why);
      }
    }
  }
}
