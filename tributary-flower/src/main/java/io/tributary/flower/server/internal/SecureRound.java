package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.Scalar;
import io.tributary.flower.internal.MalformedMessageException;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Code;
import io.tributary.flower.internal.proto.Parameters;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.server.FlowerServerException;
import io.tributary.flower.server.RemoteClientException;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.SecureFitProtocol;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One secure fit round over the Flower transport: the {@link SecureFitProtocol} decides what the
 * clients are sent in each exchange and screens their answers; this class sends the FitIns,
 * awaits the FitRes, excludes the clients that fail, and keeps the round's exclusions.
 */
final class SecureRound extends SecureFitRounds implements SecureFitProtocol.Exchange {
  private static final Logger LOG = LoggerFactory.getLogger(SecureRound.class);

  private final SecureFitProtocol protocol;
  private final SecureAggregation options;
  private final Optional<Duration> timeout;
  private final BiFunction<RemoteClient, StructValue, Parameters> encoder;
  /** The round under way: its clients and model. */
  private List<RemoteClient> clients = List.of();
  private StructValue model;

  SecureRound(SecureFitProtocol protocol, SecureAggregation options, Optional<Duration> timeout,
      BiFunction<RemoteClient, StructValue, Parameters> encoder) {
    this.protocol = protocol;
    this.options = options;
    this.timeout = timeout;
    this.encoder = encoder;
  }

  /**
   * The secure-aggregation protocol on the class path ({@link ServiceLoader}), the first found.
   *
   * @throws FlowerServerException when there is none
   */
  static SecureFitProtocol protocol() throws FlowerServerException {
    Iterator<SecureFitProtocol> found =
        ServiceLoader.load(SecureFitProtocol.class, SecureRound.class.getClassLoader()).iterator();
    if (!found.hasNext()) {
      throw new FlowerServerException("secure aggregation needs a SecureFitProtocol on the class "
          + "path: add tributary-flower-secagg (SecAgg+)", null);
    }
    return found.next();
  }

  @Override
  public String name() {
    return protocol.name();
  }

  @Override
  public int exchanges() {
    return protocol.exchanges();
  }

  /**
   * Runs {@code fit}'s round over its clients from {@code model}.
   *
   * @throws SecureFitProtocol.Failed when the protocol fails the round
   */
  @Override
  public synchronized SecureFitProtocol.Outcome run(FitRound fit, StructValue model) {
    begin(fit);
    this.clients = fit.clients();
    this.model = model;
    try {
      return protocol.run(options, ModelSpec.tensors(model), fit.config(), this);
    } finally {
      this.clients = List.of();
      this.model = null;
    }
  }

  @Override
  public int clients() {
    return clients.size();
  }

  @Override
  public Map<Integer, Map<String, Scalar>> fit(String stage,
      Map<Integer, Map<String, Scalar>> configs, boolean withModel) {
    progress.stage(round, "SecAgg+ " + stage, configs.size());
    int excludedBefore;
    synchronized (exclusions) {
      excludedBefore = exclusions.size();
    }
    Map<Integer, CompletableFuture<ClientMessage>> pending = new TreeMap<>();
    for (Map.Entry<Integer, Map<String, Scalar>> e : configs.entrySet()) {
      RemoteClient c = clients.get(e.getKey());
      ServerMessage.FitIns.Builder ins = ServerMessage.FitIns.newBuilder()
          .putAllConfig(ScalarCodec.toProto(e.getValue()));
      try {
        // Exchanges without the model send no tensors, in the client's tensor type.
        ins.setParameters(withModel ? encoder.apply(c, model)
            : Parameters.newBuilder().setTensorType(c.tensorType()).build());
      } catch (RemoteClientException ex) {
        exclude(e.getKey(), stage, ex.getMessage());
        continue;
      }
      ServerMessage message = ServerMessage.newBuilder().setFitIns(ins).build();
      try {
        pending.put(e.getKey(), c.request(message, timeout));
      } catch (IllegalStateException ex) {
        exclude(e.getKey(), stage, ex.getMessage());
      }
    }
    Map<Integer, Map<String, Scalar>> answers = new TreeMap<>();
    for (Map.Entry<Integer, CompletableFuture<ClientMessage>> e : pending.entrySet()) {
      int i = e.getKey();
      RemoteClient c = clients.get(i);
      ClientMessage answer;
      try {
        answer = RemoteCall.await(c, ServerMessage.MsgCase.FIT_INS, e.getValue(),
            ClientMessage.MsgCase.FIT_RES, () -> c.abandon(e.getValue(),
                "the secure round stopped waiting for its answer"));
      } catch (RemoteClientException ex) {
        exclude(i, stage, ex.getMessage());
        continue;
      }
      ClientMessage.FitRes res = answer.getFitRes();
      if (res.getStatus().getCode() != Code.OK) {
        exclude(i, stage, "FitRes reported " + res.getStatus().getCode() + ": "
            + res.getStatus().getMessage());
        continue;
      }
      try {
        answers.put(i, ScalarCodec.fromProto(res.getMetricsMap()));
        progress.clientReported(round, c.id());
      } catch (MalformedMessageException ex) {
        exclude(i, stage, "metrics: " + ex.getMessage());
      }
    }
    List<String> dropped;
    synchronized (exclusions) {
      dropped = List.copyOf(exclusions.subList(excludedBefore, exclusions.size()));
    }
    progress.stageEnded(round, "SecAgg+ " + stage, answers.size(), dropped);
    return answers;
  }

  @Override
  public void exclude(int client, String stage, String why) {
    String line = "secure aggregation: client " + client + " (" + clients.get(client).id()
        + ") excluded at " + stage + ": " + why;
    LOG.warn(line);
    progress.clientFailed(round, clients.get(client).id(), "dropped out at " + stage + ": "
        + why);
    synchronized (exclusions) {
      exclusions.add(line);
    }
  }
}
