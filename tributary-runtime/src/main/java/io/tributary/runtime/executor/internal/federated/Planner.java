package io.tributary.runtime.executor.internal.federated;

import io.tributary.core.types.FederatedType;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ClientObserver;
import io.tributary.runtime.ExecutionFailedException;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.PassEngine;
import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.PassInputs;
import io.tributary.runtime.PassPart;
import io.tributary.runtime.PassRequest;
import io.tributary.runtime.SecurePass;
import io.tributary.runtime.SecureSumSpec;
import io.tributary.runtime.executor.internal.aggregation.CollectSink;
import io.tributary.runtime.executor.internal.aggregation.LinearSink;
import io.tributary.runtime.executor.internal.aggregation.PerEdgeSink;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import io.tributary.runtime.executor.internal.local.LocalFn;
import io.tributary.runtime.executor.internal.pass.ClientCosts;
import io.tributary.runtime.executor.internal.pass.ClientPass;
import io.tributary.runtime.executor.internal.pass.PassCodec;
import io.tributary.runtime.executor.internal.pass.PassReplay;
import io.tributary.runtime.executor.internal.pass.SecurePasses;
import io.tributary.runtime.executor.internal.pass.TiledKernel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Computes a node of the lazy graph: it finds every aggregation (and every per-client result)
 * the node needs, then repeatedly runs one pass for all of those whose own inputs are ready, so
 * that aggregations over the same clients' work share one pass.
 *
 * <p>A pass runs as a local {@link ClientPass}, or, when the options name a
 * {@link PassEngine}, on the engine: the planner sends it the pass's index (counted from 0 in
 * the order passes run) and the results of the passes before, checks and merges the parts the
 * engine's workers return, and ends the pass as a local one does ({@link ClientPass#finish}).
 * A worker's planner replays the same invocation ({@link PassReplay}): it takes the earlier
 * passes' results from the request instead of computing them and computes its range of the
 * requested pass. Since planning depends only on the computation and its arguments, the passes
 * come in the same order on both sides. A replay from the pass's {@link PassInputs} alone (a
 * node's) computes no earlier pass: their aggregations are withheld, and the server values the
 * pass's clients read ({@link ClientInputs#boundary}) come from the inputs. A pass with secure
 * sums on an engine that runs them ends from the engine's {@link SecurePass}
 * ({@link SecurePasses#finish}).
 */
public final class Planner {
  private final FederatingExecutor executor;
  private final List<ClientFailure> failures = Collections.synchronizedList(new ArrayList<>());
  /** With a pass engine, each pass's results encoded, for the requests of later passes. */
  private final List<byte[]> earlier = new ArrayList<>();
  private int passes;

  /** Plans the passes of {@code executor}'s invocation. */
  public Planner(FederatingExecutor executor) {
    this.executor = executor;
  }

  /** The clients that failed in the passes so far. */
  public List<ClientFailure> failures() {
    synchronized (failures) {
      return List.copyOf(failures);
    }
  }

  /** The passes run so far. */
  public synchronized int passes() {
    return passes;
  }

  /** The node's value in the runtime representation, running whatever passes it needs. */
  public synchronized Object materialize(Node root) {
    Map<ClientNode, Object> collected = new IdentityHashMap<>();
    List<ClientNode> perClientResults = new ArrayList<>();
    resultClientNodes(root, perClientResults);
    Set<ServerNode.Aggregation> pending = new LinkedHashSet<>();
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    findAggregations(root, pending, seen);
    for (ClientNode c : perClientResults) {
      findAggregations(c, pending, seen);
    }
    List<ClientNode> collectPending = new ArrayList<>(perClientResults);
    while (!pending.isEmpty() || !collectPending.isEmpty()) {
      List<Sink> sinks = new ArrayList<>();
      List<Object> targets = new ArrayList<>();
      for (ServerNode.Aggregation a : pending) {
        if (ready(a.clientInputs())) {
          sinks.add(a.sink);
          targets.add(a);
        }
      }
      for (ClientNode c : collectPending) {
        if (ready(List.of(c))) {
          sinks.add(new CollectSink(c));
          targets.add(c);
        }
      }
      if (sinks.isEmpty()) {
        throw new IllegalStateException("no aggregation is ready, yet " + pending.size()
            + " are pending: the computation graph has a cycle");
      }
      Object[] values = runPass(sinks);
      for (int i = 0; i < sinks.size(); i++) {
        if (targets.get(i) instanceof ServerNode.Aggregation a) {
          if (values == null) {
            a.withhold(a.uri + " of pass " + (passes - 1));
          } else {
            a.set(values[i]);
          }
          pending.remove(a);
        } else {
          collected.put((ClientNode) targets.get(i), values == null ? List.of() : values[i]);
          collectPending.remove((ClientNode) targets.get(i));
        }
      }
    }
    return value(root, collected);
  }

  /** The pass's results, one per sink; null for a pass a node's replay skips unread. */
  private Object[] runPass(List<Sink> sinks) {
    Object[] values = aggregate(sinks);
    // Client values were checked one by one; finite values can still overflow together.
    for (int i = 0; values != null && i < sinks.size(); i++) {
      if (sinks.get(i) instanceof LinearSink) {
        java.util.Optional<String> bad = LinearSink.nonFinite(values[i]);
        if (bad.isPresent()) {
          throw new LocalComputationException(sinks.get(i).intrinsic() + ": the aggregate "
              + "overflows and is refused: " + bad.get().replace("the value is not finite: ", ""),
              null);
        }
      }
    }
    return values;
  }

  private Object[] aggregate(List<Sink> sinks) {
    int clients = executor.requireCardinality(sinks.get(0).intrinsic());
    int pass = passes++;
    Optional<PassReplay> replay = executor.replay();
    if (replay.isPresent() && pass < replay.get().pass()) {
      // From the pass's inputs alone, an earlier pass is not computed and its results are not
      // known: reading one fails, unless it is among the inputs.
      return replay.get().fromInputs() ? null : replay.get().earlier(pass, sinks);
    }
    if (replay.isPresent() && pass == replay.get().pass() && replay.get().fromInputs()) {
      ClientInputs.supply(ClientInputs.boundary(sinks),
          replay.get().inputs().serverValues(), pass);
    }
    Optional<PassEngine> engine = executor.options().passEngine();
    if (replay.isEmpty() && engine.isEmpty() && TiledKernel.applies(sinks)) {
      Object value;
      try {
        value = TiledKernel.run((LinearSink) sinks.get(0), executor.options().threads(),
            executor.pool());
      } catch (IllegalArgumentException e) {
        throw new LocalComputationException(sinks.get(0).intrinsic() + ": " + e.getMessage(), e);
      }
      // A NaN or infinite input always makes the sum NaN or infinite, so a finite result proves
      // every input finite without reading the inputs twice. Otherwise the streaming pass below
      // checks client by client, failing those whose values are not finite (or, when all are,
      // the aggregate overflowed and is refused).
      if (LinearSink.nonFinite(value).isEmpty()) {
        return new Object[] {value};
      }
    }
    ClientPass.PassSettings settings = new ClientPass.PassSettings(
        executor.options().threads(), executor.pool(), executor.coordinator(),
        executor.options().clientTimeout(), executor.options().minSuccessFraction(),
        executor.evaluator(), pass,
        replay.isPresent() ? ClientObserver.NONE : executor.observer());
    try {
      if (replay.isPresent()) {
        throw replay.get().compute(clients, sinks, settings, ClientCosts.of(sinks, clients));
      }
      ClientPass.Result r = engine.isPresent()
          ? onEngine(engine.get(), pass, clients, sinks)
          : new ClientPass(clients, sinks, settings, ClientCosts.of(sinks, clients)).run();
      failures.addAll(r.failures());
      if (engine.isPresent()) {
        earlier.add(PassCodec.encodePass(r.values()));
      }
      return r.values();
    } catch (ExecutionFailedException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new LocalComputationException(sinks.get(0).intrinsic() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Has {@code engine} compute the pass, then checks and merges its parts and applies the
   * failure policy as a local pass does ({@link ClientPass#finish}).
   */
  private ClientPass.Result onEngine(PassEngine engine, int pass, int clients, List<Sink> sinks) {
    for (Sink s : sinks) {
      Sink inner = s instanceof PerEdgeSink p ? p.inner() : s;
      if (inner instanceof LinearSink l && l.gathers()) {
        throw l.secureSumRefused();
      }
    }
    FederatingExecutor.Invocation inv = executor.invocation().orElseThrow(() ->
        new PassEngineException("a pass engine needs the invocation's computation and "
            + "arguments, which this executor was not given", null));
    PassRequest request = new PassRequest(inv.computation(), inv.arguments(), pass, clients,
        ClientPass.groups(clients), PassCodec.encodeEarlier(earlier),
        executor.options().edges(), inputs(inv, pass, sinks));
    Optional<SecureSumSpec> spec = SecurePasses.spec(pass, clients, sinks);
    if (spec.isPresent() && clients == 0) {
      // No client, no protocol: the sums of nothing, as a local pass gives them.
      return SecurePasses.finish(sinks, 0, executor.options().minSuccessFraction(), spec.get(),
          new SecurePass(List.of(), new long[0], new int[0]));
    }
    if (spec.isPresent()) {
      SecurePasses.requireOneClientPerGroup(clients, spec.get());
      SecurePass secure;
      try {
        secure = engine.runSecure(request, spec.get());
      } catch (ExecutionFailedException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new PassEngineException("the pass engine failed on pass " + pass + ": " + e, e);
      }
      if (secure == null) {
        throw new PassEngineException("the pass engine returned nothing for pass " + pass, null);
      }
      return SecurePasses.finish(sinks, clients, executor.options().minSuccessFraction(),
          spec.get(), secure);
    }
    List<PassPart> parts;
    try {
      parts = engine.run(request);
    } catch (PassEngineException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new PassEngineException("the pass engine failed on pass " + pass + ": " + e, e);
    }
    long t0 = System.nanoTime();
    ClientPass.Result result = ClientPass.finish(sinks, clients,
        executor.options().minSuccessFraction(), PassCodec.decodeParts(parts, sinks, clients,
            executor.options().minSuccessFraction() >= 1.0));
    // What the driver itself spends on a pass beyond the engine's job: the benchmarks split a
    // cluster round's time with it.
    if (EngineLog.LOG.isDebugEnabled()) {
      EngineLog.LOG.debug("pass {} of {} clients: {} parts decoded and merged on the driver in "
          + "{} ms", pass, clients, parts.size(), String.format(Locale.ROOT, "%.3f",
              (System.nanoTime() - t0) / 1e6));
    }
    return result;
  }

  /**
   * The pass's client-side inputs, computed once when the engine asks: the argument leaves not
   * at the server and the values of the server nodes the pass's clients read.
   */
  private static Supplier<PassInputs> inputs(FederatingExecutor.Invocation inv, int pass,
      List<Sink> sinks) {
    List<ServerNode> boundary = ClientInputs.boundary(sinks);
    PassInputs[] made = new PassInputs[1];
    return () -> {
      synchronized (made) {
        if (made[0] == null) {
          List<Object> values = new ArrayList<>();
          for (ServerNode n : boundary) {
            values.add(n.value());
          }
          made[0] = ClientInputs.inputs(pass, inv.computation().type().parameter(),
              inv.argument(), values);
        }
        return made[0];
      }
    };
  }

  /**
   * The logger of passes on an engine, in a holder so that SLF4J is first touched when a pass
   * runs on an engine: a program that only uses the local runtime never meets SLF4J (which
   * prints a warning on stderr when it finds no provider).
   */
  private static final class EngineLog {
    static final Logger LOG = LoggerFactory.getLogger(Planner.class);
  }

  /** Whether every aggregation below these client nodes has its value. */
  private static boolean ready(List<ClientNode> inputs) {
    Set<ServerNode.Aggregation> below = new LinkedHashSet<>();
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (ClientNode c : inputs) {
      findAggregations(c, below, seen);
    }
    for (ServerNode.Aggregation a : below) {
      if (!a.isComputed()) {
        return false;
      }
    }
    return true;
  }

  /** Adds every not yet computed aggregation reachable from {@code n}. */
  private static void findAggregations(Node n, Set<ServerNode.Aggregation> out, Set<Object> seen) {
    if (!seen.add(n)) {
      return;
    }
    switch (n) {
      case Node.StructNode s -> {
        for (Node e : s.elements) {
          findAggregations(e, out, seen);
        }
      }
      case ServerNode s -> {
        if (s.isComputed()) {
          return;
        }
        if (s instanceof ServerNode.Aggregation a) {
          out.add(a);
        }
        for (Node x : s.serverInputs()) {
          findAggregations(x, out, seen);
        }
        for (Node x : s.clientInputs()) {
          findAggregations(x, out, seen);
        }
      }
      case ClientNode c -> {
        for (Node x : c.serverInputs()) {
          findAggregations(x, out, seen);
        }
        for (Node x : c.clientInputs()) {
          findAggregations(x, out, seen);
        }
      }
      default -> { }
    }
  }

  /** The per-client ({@code {T}@CLIENTS}) nodes that are part of the result itself. */
  private static void resultClientNodes(Node n, List<ClientNode> out) {
    if (n instanceof Node.StructNode s) {
      for (Node e : s.elements) {
        resultClientNodes(e, out);
      }
    } else if (n instanceof ClientNode c && !c.uniform() && !out.contains(c)) {
      out.add(c);
    }
  }

  private Object value(Node n, Map<ClientNode, Object> collected) {
    return switch (n) {
      case Node.Unplaced u -> {
        if (u.value instanceof LocalFn) {
          throw new LocalComputationException("a function value cannot be a result");
        }
        yield u.value;
      }
      case Node.StructNode s -> {
        List<Object> values = new ArrayList<>();
        for (Node e : s.elements) {
          values.add(value(e, collected));
        }
        yield StructValue.of(s.names, values);
      }
      case ServerNode s -> s.value();
      case ClientNode c when !c.uniform() -> collected.get(c);
      case ClientNode c -> {
        Object v = c.valueFor(new ClientScope(-1, executor.evaluator()));
        // A {T}@CLIENTS result holds one value per client even when they are all equal (the
        // map of a broadcast, as federated-language writes it): its type decides its form.
        yield c.type() instanceof FederatedType f && !f.allEqual()
            ? Collections.nCopies(executor.requireCardinality("a " + f + " result"), v)
            : v;
      }
      default -> throw new LocalComputationException("a value of type " + n.type()
          + " cannot be a result");
    };
  }
}
