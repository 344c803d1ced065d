package io.tributary.flower.fleet.server;

import io.tributary.core.values.StructValue;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.client.internal.InstructionHandler;
import io.tributary.flower.fleet.server.internal.MessageApi;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.server.internal.LocalClientWork;
import io.tributary.flower.server.internal.ModelSpec;
import io.tributary.flower.server.internal.RemoteClientWork;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.RoundOutput;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.SecureSummation;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.Set;

/**
 * The simulated run a server's run over Java nodes or Join clients must equal bit for bit: the
 * same process over the same clients in one JVM, each client's work answered as its transport
 * answers it (a node's app through the Fleet message layout, a Join client's {@link
 * FlowerClient} through the Join client's instruction handler), the server's runtime options,
 * and the secure sums computed by a summation among the simulated clients (SecAgg+, say).
 */
public final class SimulatedNodes {
  /** The largest example count a client is weighted with, as the servers' default. */
  private static final long MAX_EXAMPLES = 1_000_000;

  private SimulatedNodes() {}

  /**
   * The first tensor of the model after {@code rounds} rounds of {@code algorithm} from {@code
   * initial} over {@code apps} (by client id, in the server's order); {@code failing} clients'
   * training throws.
   */
  public static double[] run(FederatedAlgorithm algorithm, SequencedMap<String, Tensor> initial,
      Map<String, ClientApp> apps, Set<String> failing, ServerConfig config, int rounds,
      SecureSummation summation) {
    return runClients(algorithm, initial, apps, failing, config, rounds, summation);
  }

  /**
   * The same over {@code clients} by id in the server's order, each a Fleet node's {@link
   * ClientApp} or a Join client's {@link FlowerClient}.
   */
  public static double[] runClients(FederatedAlgorithm algorithm,
      SequencedMap<String, Tensor> initial, Map<String, ?> clients, Set<String> failing,
      ServerConfig config, int rounds, SecureSummation summation) {
    SerializerRegistry registry = SerializerRegistry.load();
    ModelSpec spec = ModelSpec.of(List.copyOf(initial.values()));
    MessageApi api = new MessageApi(registry);
    LocalClientWork work = new LocalClientWork("simulated", spec,
        algorithm.aggregator().create(spec.type()).clientSignals(), MAX_EXAMPLES,
        registry, Map.of(), Map.of(), (client, ins) -> {
          if (failing.contains(client)) {
            throw new IllegalStateException(client + " fails");
          }
          return switch (clients.get(client)) {
            case ClientApp app -> answer(api, app, ins);
            case FlowerClient f -> new InstructionHandler(f, registry).handle(ins,
                ins.hasFitIns() ? ins.getFitIns().getParameters().getTensorType()
                    : ins.getEvaluateIns().getParameters().getTensorType()).message();
            case null, default -> throw new IllegalStateException("no client " + client);
          };
        });
    LearningProcess p = algorithm.process(RemoteClientWork.initialize(spec,
        List.copyOf(initial.values())), work.fit(), work.evaluation());
    List<Object> cohort = new ArrayList<>();
    clients.keySet().forEach(id -> cohort.add(Tensor.ofStrings(Shape.scalar(), id)));
    RuntimeOptions o = RuntimeOptions.defaults().withThreads(config.maxConcurrentClients())
        .withMinSuccessFraction(config.minSuccessFraction()).withSeed(config.seed())
        .withMaxWeight(config.maxExamplesPerClient(), config.overMaxExamples())
        .withSecureSum(summation);
    try (ExecutionContext ctx = ExecutionContext.create(o)) {
      StructValue state = (StructValue) ctx.invoke(p.initialize());
      for (int r = 0; r < rounds; r++) {
        state = RoundOutput.of(ctx.invoke(p.next(), state, cohort)).state();
      }
      return doubles((Tensor) state.struct(0).get(0));
    }
  }

  private static ClientMessage answer(MessageApi api, ClientApp app, ServerMessage ins) {
    try {
      Message m = api.instruction(ins, 1, 1, MessageApi.DEFAULT_TTL);
      return MessageApi.answer(ins.getMsgCase(), app.handle(m, new Context(1, 1, Map.of(),
          Map.of(), RecordDict.empty())));
    } catch (MessageApi.BadReply e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** The elements of {@code t}. */
  public static double[] doubles(Tensor t) {
    double[] out = new double[(int) t.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = t.getAsDouble(i);
    }
    return out;
  }
}
