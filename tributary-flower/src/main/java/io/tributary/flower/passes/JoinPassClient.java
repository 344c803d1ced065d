package io.tributary.flower.passes;

import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientException;
import io.tributary.flower.ForwardingFlowerClient;
import io.tributary.flower.Scalar;
import io.tributary.flower.TensorTypes;
import io.tributary.flower.app.Context;
import io.tributary.flower.app.NodeCapabilities;
import io.tributary.flower.client.internal.InstructionHandler;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.records.RecordDict;
import java.util.List;
import java.util.Map;

/**
 * A Join client that runs the server's secure passes beside its own training ({@link
 * NodePasses#serve(FlowerClient)}): a stage's FitIns is answered by the protocol's node side,
 * the capability query with this Tributary's client-pass version, everything else by the client.
 */
final class JoinPassClient extends ForwardingFlowerClient {
  /** What the node's replay calls its client in errors: a Join client has no node id. */
  private static final String ID = "join-client";

  private final NodePasses passes;
  private final NodeComputation computation;
  private final InstructionHandler handler;
  /** One context for the stream's life, as a SuperNode keeps one per run. */
  private final Context context = new Context(0, 0, Map.of(), Map.of(), RecordDict.empty());

  JoinPassClient(NodePasses passes, NodeComputation computation, FlowerClient client) {
    super(client);
    this.passes = passes;
    this.computation = computation;
    this.handler = new InstructionHandler(client, computation.serializers());
  }

  @Override
  public Map<String, Scalar> getProperties(Map<String, Scalar> config)
      throws FlowerClientException {
    if (NodeCapabilities.isQuery(config)) {
      return Map.of(ClientPasses.CLIENT_PASSES, Scalar.of(ClientPasses.PROTOCOL_VERSION));
    }
    return super.getProperties(config);
  }

  @Override
  public FitRes fit(FitIns ins) throws FlowerClientException {
    if (!JoinPassLayout.isStage(ins.config())) {
      return super.fit(ins);
    }
    if (!ins.parameters().isEmpty()) {
      throw new FlowerClientException("a secure pass's FitIns carries " + ins.parameters()
          .size() + " tensors; its stages carry none");
    }
    RecordDict stage;
    try {
      stage = JoinPassLayout.stage(ins.config());
    } catch (JoinPassLayout.MalformedException e) {
      throw new FlowerClientException("a secure pass's FitIns is malformed: " + e.getMessage(),
          e);
    }
    RecordDict reply;
    try {
      reply = passes.respond(stage, context, (spec, fit) -> computation.rebuild(spec, fit,
          Map.of(), ID, this::answer));
    } catch (NodeComputationException e) {
      throw new FlowerClientException(e.getMessage(), e);
    }
    return new FitRes(List.of(), 0, JoinPassLayout.fitResMetrics(reply));
  }

  /** The client's answer to {@code ins}, as its Join stream would answer it. */
  private ClientMessage answer(ServerMessage ins) {
    String type = ins.hasFitIns() ? ins.getFitIns().getParameters().getTensorType()
        : TensorTypes.DEFAULT;
    return handler.handle(ins, type.isEmpty() ? TensorTypes.DEFAULT : type).message();
  }
}
