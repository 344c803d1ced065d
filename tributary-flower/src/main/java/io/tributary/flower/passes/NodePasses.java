package io.tributary.flower.passes;

import io.tributary.core.computation.Computation;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.Scalar;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.learning.LearningProcess;
import io.tributary.runtime.ClientPassPart;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.PassInputs;
import io.tributary.runtime.RuntimeOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Java node that runs the server's secure passes beside its ClientApp: {@link #serve} answers
 * {@value SecurePassMessages#MESSAGE_TYPE} messages with the protocol's node side ({@link
 * SecurePassNode}), replaying the node's client with the computation {@link NodeComputation}
 * rebuilds ({@code flower_fit} bound to the app), and passes every other message to the app. The
 * served app states that it runs client passes ({@link ClientPasses}). A Java client that joins
 * over the legacy {@code Join} transport is served the same way ({@link #serve(FlowerClient)}),
 * the stages carried in FitIns/FitRes ({@link JoinPassLayout}).
 *
 * <pre>{@code
 * ClientApp served = NodePasses.of(NodeComputation.builder().algorithm(dpFedAvg).build(),
 *     new SecAggPassNode()).serve(app);
 * SuperNode.builder(address).clientApp(served).build().start();
 * }</pre>
 *
 * <p>{@link #installed} takes the protocol's node side from the class path, as the server finds
 * the protocol's server side there: with {@code tributary-flower-secagg} on it, SecAgg+.
 */
public final class NodePasses {
  private final NodeComputation computation;
  private final SecurePassNode secure;
  private final String protocol;

  private NodePasses(NodeComputation computation, SecurePassNode secure, String protocol) {
    this.computation = Objects.requireNonNull(computation, "computation");
    this.secure = Objects.requireNonNull(secure, "secure");
    this.protocol = protocol;
  }

  /** Passes rebuilt by {@code computation}, their secure sums run by {@code secure}. */
  public static NodePasses of(NodeComputation computation, SecurePassNode secure) {
    return new NodePasses(computation, secure, null);
  }

  /**
   * Passes rebuilt by {@code computation}, their secure sums run by the node side ({@link
   * SecurePassProtocol#node}) of the first {@link SecurePassProtocol} that {@link
   * java.util.ServiceLoader} finds on {@code loader}'s class path, which is how a Tributary
   * server picks its own; empty when none is there.
   *
   * @throws IllegalArgumentException when a registered protocol does not load
   */
  public static Optional<NodePasses> installed(NodeComputation computation, ClassLoader loader) {
    Objects.requireNonNull(computation, "computation");
    Optional<SecurePassProtocol> protocol;
    try {
      protocol = java.util.ServiceLoader.load(SecurePassProtocol.class, loader).findFirst();
    } catch (java.util.ServiceConfigurationError e) {
      throw new IllegalArgumentException("a " + SecurePassProtocol.class.getSimpleName()
          + " provider does not load: " + e.getMessage(), e);
    }
    return protocol.map(p -> new NodePasses(computation, p.node(), p.name()));
  }

  /** The secure-sum protocol's name, such as {@code SecAgg+}, when it is known. */
  public Optional<String> protocol() {
    return Optional.ofNullable(protocol);
  }

  /**
   * {@code app} answering secure-pass messages too, and stating that it runs client passes. Its
   * own message types go to it unchanged (its mods and non-finite checks included).
   */
  public ClientApp serve(ClientApp app) {
    Objects.requireNonNull(app, "app");
    // The app checks its own messages' arrays: this one lets them through to it.
    ClientApp.Builder b = ClientApp.builder().acceptNonFinite();
    b.on(SecurePassMessages.MESSAGE_TYPE, (m, c) -> handle(app, m, c));
    for (String type : app.messageTypes()) {
      if (!type.equals(SecurePassMessages.MESSAGE_TYPE)) {
        b.on(type, app::handle);
      }
    }
    return computation.advertisedBy(b.build());
  }

  private Message handle(ClientApp app, Message m, Context context)
      throws NodeComputationException {
    return m.reply(respond(m.content(), context, (spec, fit) -> computation.rebuild(spec, fit,
        Map.of(), app, context)));
  }

  /**
   * {@code client} answering secure-pass stages too, for a node that joins over the legacy
   * {@code Join} transport ({@code FlowerClientRunner}): a FitIns whose config carries a stage
   * ({@link JoinPassLayout}) is answered with the protocol's node side as a Fleet node answers
   * the stage's message, the client replayed with {@code flower_fit} bound to {@code client}
   * itself (the FitIns it is sent is the one its stream would carry); the capability query
   * ({@code GetPropertiesIns} with {@link ClientPasses#query()}) states that it runs client
   * passes. Every other instruction goes to {@code client} unchanged.
   *
   * <pre>{@code
   * FlowerClient served = NodePasses.of(NodeComputation.builder().algorithm(dpFedAvg).build(),
   *     new SecAggPassNode()).serve(client);
   * FlowerClientRunner.builder(served).target("127.0.0.1:8080").build().run();
   * }</pre>
   */
  public FlowerClient serve(FlowerClient client) {
    return new JoinPassClient(this, computation, Objects.requireNonNull(client, "client"));
  }

  /** Rebuilds the pass's process from the spec and fit config a stage message carries. */
  @FunctionalInterface
  interface Rebuild {
    LearningProcess rebuild(ComputationSpec spec, Map<String, Scalar> fitConfig)
        throws NodeComputationException;
  }

  /**
   * The node's reply to the stage message {@code content}: the protocol's entries, and the
   * pass part when the stage carries the pass, its process had from {@code rebuild}.
   *
   * @throws IllegalArgumentException when the message is malformed, naming what is wrong
   * @throws NodeComputationException when the pass's computation cannot be rebuilt
   */
  RecordDict respond(RecordDict content, Context context, Rebuild rebuild)
      throws NodeComputationException {
    Map<String, Object> stage = record(content, SecurePassMessages.STAGE_RECORD)
        .orElseThrow(() -> new IllegalArgumentException("the message has no '"
            + SecurePassMessages.STAGE_RECORD + "' config record"));
    ClientPassPart[] computed = new ClientPassPart[1];
    Optional<ClientReplay> replay = Optional.empty();
    Optional<Map<String, Object>> pass = record(content, SecurePassMessages.PASS_RECORD);
    if (pass.isPresent()) {
      Pass p = Pass.read(pass.get());
      ComputationSpec spec = ComputationSpec.fromConfig(record(content,
          SecurePassMessages.SPEC_RECORD).orElseThrow(() -> new IllegalArgumentException(
              "the pass has no '" + SecurePassMessages.SPEC_RECORD + "' config record")));
      Map<String, Scalar> fit = SecurePassMessages.scalars(record(content,
          SecurePassMessages.FIT_CONFIG_RECORD).orElse(Map.of()));
      replay = Optional.of(client -> {
        LearningProcess process = rebuild.rebuild(spec, fit);
        Computation c = p.next() ? process.next() : process.evaluate();
        PassInputs inputs = PassInputs.decode(p.inputs());
        if (inputs.pass() != p.pass()) {
          throw new IllegalArgumentException("the inputs are pass " + inputs.pass()
              + "'s, the message pass " + p.pass() + "'s");
        }
        try (ExecutionContext ctx = ExecutionContext.create(p.options())) {
          computed[0] = ctx.computeClientPart(c, inputs, p.client(), client);
          return computed[0];
        }
      });
    }
    Map<String, Object> reply = secure.stage(stage, replay, context);
    LinkedHashMap<String, Record> out = new LinkedHashMap<>();
    out.put(SecurePassMessages.STAGE_RECORD, new ConfigRecord(reply));
    if (computed[0] != null) {
      out.put(SecurePassMessages.PART_RECORD, new ConfigRecord(Map.of(
          SecurePassMessages.PAYLOAD, computed[0].part().payload())));
    }
    return new RecordDict(out);
  }

  private static Optional<Map<String, Object>> record(RecordDict content, String name) {
    return content.get(name) instanceof ConfigRecord r ? Optional.of(r.values())
        : Optional.empty();
  }

  /**
   * The pass a message carries: which computation, the pass, the client, its inputs, and the
   * server's runtime options that decide a client's part (the seed, the weight bound).
   */
  private record Pass(boolean next, int pass, int client, byte[] inputs, RuntimeOptions options) {
    static Pass read(Map<String, Object> v) {
      boolean next = switch (v.get(SecurePassMessages.COMPUTATION)) {
        case String s when s.equals(SecurePassMessages.NEXT) -> true;
        case String s when s.equals(SecurePassMessages.EVALUATE) -> false;
        case null, default -> throw new IllegalArgumentException(SecurePassMessages.COMPUTATION
            + " must be '" + SecurePassMessages.NEXT + "' or '" + SecurePassMessages.EVALUATE
            + "'");
      };
      int pass = index(v, SecurePassMessages.PASS);
      int client = index(v, SecurePassMessages.CLIENT);
      if (!(v.get(SecurePassMessages.INPUTS) instanceof byte[] inputs)) {
        throw new IllegalArgumentException(SecurePassMessages.INPUTS + " must be bytes");
      }
      RuntimeOptions o = RuntimeOptions.defaults().withThreads(1)
          .withSeed(SecurePassMessages.longOf(v, SecurePassMessages.SEED));
      if (v.get(SecurePassMessages.MAX_WEIGHT) instanceof Double max) {
        if (!(max > 0)) {
          throw new IllegalArgumentException(SecurePassMessages.MAX_WEIGHT
              + " must be positive, got " + max);
        }
        RuntimeOptions.WeightPolicy policy = v.get(SecurePassMessages.OVER_WEIGHT)
            instanceof String s && s.equals("EXCLUDE") ? RuntimeOptions.WeightPolicy.EXCLUDE
            : RuntimeOptions.WeightPolicy.CLIP;
        o = o.withMaxWeight(max, policy);
      }
      return new Pass(next, pass, client, inputs, o);
    }

    private static int index(Map<String, Object> v, String key) {
      long x = SecurePassMessages.longOf(v, key);
      if (x < 0 || x > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(key + " is out of range: " + x);
      }
      return (int) x;
    }
  }
}
