package io.tributary.runtime.executor.internal.pass;

import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.PassInputs;
import io.tributary.runtime.PassPart;
import io.tributary.runtime.SecureSumClient;
import io.tributary.runtime.SecureSumSpec;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import java.util.List;
import java.util.Optional;

/**
 * A worker's replay of an invocation for a {@link io.tributary.runtime.PassEngine}: the passes
 * before {@link #pass} are answered from the driver's earlier results instead of computed, pass
 * {@link #pass} is computed for groups {@code [fromGroup, toGroup)} only, and the invocation
 * stops there, its part encoded.
 *
 * <p>A replay {@link #fromInputs} has only the pass's client-side inputs instead of the
 * arguments and earlier results; one {@link #forClient} also hands its client's secure-sum
 * inputs to a protocol instead of the part ({@link SecurePasses#submit}).
 *
 * <p>Used by {@link io.tributary.runtime.ExecutionContext#computePassPart}; one replay serves one
 * invocation.
 */
public final class PassReplay {
  private final int pass;
  private final byte[] earlier;
  private final long fromGroup;
  private final long toGroup;
  /** The parts to combine instead of computing the groups, in group order, or null. */
  private final java.util.Iterator<PassPart> combine;
  /** The pass's client-side inputs, when the replay has only those, or null. */
  private PassInputs inputs;
  /** The client side of the pass's secure sums, on a node's replay for its client, or null. */
  private SecureSumClient client;
  private List<List<Object>> earlierValues;
  private volatile PassPart part;
  private volatile Optional<byte[]> sent = Optional.empty();

  /** Unwinds the invocation once the part is computed; never seen outside {@link #run}. */
  private static final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stop() {
      super("pass part computed", null, false, false);
    }
  }

  /**
   * A replay that computes groups {@code [fromGroup, toGroup)} of pass {@code pass}.
   *
   * @throws PassEngineException when the pass or the range is negative
   */
  public PassReplay(int pass, byte[] earlier, long fromGroup, long toGroup) {
    this(pass, earlier, fromGroup, toGroup, null);
  }

  private PassReplay(int pass, byte[] earlier, long fromGroup, long toGroup,
      java.util.Iterator<PassPart> combine) {
    if (pass < 0 || fromGroup < 0 || toGroup < fromGroup) {
      throw new PassEngineException("no pass part " + pass + " of groups [" + fromGroup + ", "
          + toGroup + ")", null);
    }
    this.pass = pass;
    this.earlier = earlier.clone();
    this.fromGroup = fromGroup;
    this.toGroup = toGroup;
    this.combine = combine;
  }

  /**
   * A replay of groups {@code [fromGroup, toGroup)} of the pass that {@code inputs} are for,
   * from those inputs alone: the server-placed arguments and the earlier passes' results are
   * not known to it, and reading one fails.
   */
  public static PassReplay fromInputs(PassInputs inputs, long fromGroup, long toGroup) {
    PassReplay r = new PassReplay(inputs.pass(), new byte[0], fromGroup, toGroup, null);
    r.inputs = inputs;
    return r;
  }

  /**
   * A node's replay for its one client, group {@code group} of the pass that {@code inputs} are
   * for, whose inputs to the pass's secure sums go to {@code client} instead of the part.
   */
  public static PassReplay forClient(PassInputs inputs, long group, SecureSumClient client) {
    PassReplay r = fromInputs(inputs, group, group + 1);
    r.client = java.util.Objects.requireNonNull(client, "client");
    return r;
  }

  /** Whether this replay has only the pass's client-side inputs. */
  public boolean fromInputs() {
    return inputs != null;
  }

  /** The pass's client-side inputs ({@link #fromInputs}). */
  public PassInputs inputs() {
    return inputs;
  }

  /** Whether this replay hands its client's secure-sum inputs to a protocol. */
  public boolean secureClient() {
    return client != null;
  }

  /** What the client's protocol returned for its secure-sum inputs, once the replay ran. */
  public Optional<byte[]> sent() {
    return sent;
  }

  /**
   * A replay that computes no client but combines {@code parts} (other workers' parts of pass
   * {@code pass}, consecutive once sorted) into the one part of the groups they cover together:
   * a second, smaller stage of the reduction tree, so that the driver receives fewer parts.
   *
   * @throws PassEngineException when {@code parts} is empty or the pass is negative
   */
  public static PassReplay combining(int pass, byte[] earlier, List<PassPart> parts) {
    if (parts.isEmpty()) {
      throw new PassEngineException("no pass parts to combine", null);
    }
    List<PassPart> sorted = new java.util.ArrayList<>(parts);
    sorted.sort(java.util.Comparator.comparingLong(PassPart::fromGroup)
        .thenComparingLong(PassPart::toGroup));
    long to = Long.MIN_VALUE;
    for (PassPart p : sorted) {
      to = Math.max(to, p.toGroup());
    }
    return new PassReplay(pass, earlier, sorted.get(0).fromGroup(), to, sorted.iterator());
  }

  /**
   * Like {@link #combining(int, byte[], List)}, for parts that arrive one at a time in group
   * order and together cover groups {@code [fromGroup, toGroup)}: only one part and the
   * reduction tree's O(log n) partials are held at once, however many parts there are.
   */
  public static PassReplay combining(int pass, byte[] earlier, long fromGroup, long toGroup,
      java.util.Iterator<PassPart> parts) {
    return new PassReplay(pass, earlier, fromGroup, toGroup,
        java.util.Objects.requireNonNull(parts, "parts"));
  }

  /**
   * Runs {@code invocation} (an invocation whose executor holds this replay) up to the pass and
   * returns the encoded part.
   *
   * @throws PassEngineException when the invocation has no such pass or its range is not inside
   *     the pass; whatever else the invocation throws before the pass propagates
   */
  public PassPart run(Runnable invocation) {
    try {
      invocation.run();
    } catch (Stop s) {
      return part;
    } catch (RuntimeException e) {
      // The stop may reach here wrapped by a layer that wraps what it catches.
      if (part != null) {
        return part;
      }
      throw e;
    }
    if (part != null) {
      return part;
    }
    throw new PassEngineException("the invocation finished before pass " + pass
        + ": the request does not match the computation and arguments", null);
  }

  /** The parts to combine, checked as the driver checks parts, folded one at a time. */
  private ClientPass.Part joinStream(int clients, List<Sink> sinks, boolean strict) {
    ClientPass.Joiner joiner = new ClientPass.Joiner(sinks, clients, (int) fromGroup,
        (int) toGroup);
    long covered = fromGroup;
    while (combine.hasNext()) {
      PassPart p = combine.next();
      if (p == null) {
        throw PassCodec.malformed("a null part was given to combine");
      }
      if (p.fromGroup() < covered) {
        throw PassCodec.malformed("pass part [" + p.fromGroup() + ", " + p.toGroup()
            + ") overlaps the parts before it: a group was computed twice");
      }
      if (p.fromGroup() > covered) {
        throw PassCodec.malformed("groups [" + covered + ", " + p.fromGroup()
            + ") are missing from the pass parts");
      }
      if (p.toGroup() > toGroup) {
        throw PassCodec.malformed("pass part [" + p.fromGroup() + ", " + p.toGroup()
            + ") is outside groups [" + fromGroup + ", " + toGroup + ")");
      }
      joiner.add(PassCodec.decodeOne(p, sinks, clients, strict));
      covered = p.toGroup();
    }
    if (covered != toGroup) {
      throw PassCodec.malformed("groups [" + covered + ", " + toGroup
          + ") are missing from the pass parts");
    }
    return joiner.finish();
  }

  /** The index of the pass this worker computes. */
  public int pass() {
    return pass;
  }

  /** Pass {@code p}'s results (one per sink), from the driver's earlier results. */
  public Object[] earlier(int p, List<Sink> sinks) {
    if (earlierValues == null) {
      earlierValues = PassCodec.decodeEarlier(earlier, pass);
    }
    List<Object> values = earlierValues.get(p);
    if (values.size() != sinks.size()) {
      throw new PassEngineException("the earlier results hold " + values.size()
          + " values for pass " + p + ", which has " + sinks.size() + " aggregations", null);
    }
    return values.toArray();
  }

  /**
   * Computes this replay's groups of the pass with {@code sinks} over {@code clients} clients
   * (or combines the parts it was given), then stops the invocation.
   */
  public RuntimeException compute(int clients, List<Sink> sinks, ClientPass.PassSettings settings,
      long[] cost) {
    int groups = ClientPass.groups(clients);
    if (toGroup > groups) {
      throw new PassEngineException("groups [" + fromGroup + ", " + toGroup + ") are not inside"
          + " pass " + pass + "'s " + groups + " groups (" + clients + " clients)", null);
    }
    ClientPass.Part p;
    if (combine != null) {
      p = joinStream(clients, sinks, settings.minSuccessFraction() >= 1.0);
    } else if (client != null) {
      Optional<SecureSumSpec> spec = SecurePasses.spec(pass, clients, sinks);
      if (spec.isPresent()) {
        SecurePasses.requireOneClientPerGroup(clients, spec.get());
      }
      p = new ClientPass(clients, sinks, settings, cost, (int) fromGroup, (int) toGroup)
          .runRange();
      if (spec.isPresent()) {
        sent = SecurePasses.submit(spec.get(), sinks, p, (int) fromGroup, client);
      }
    } else {
      p = new ClientPass(clients, sinks, settings, cost, (int) fromGroup, (int) toGroup)
          .runRange();
    }
    part = new PassPart(fromGroup, toGroup, PassCodec.encodePart(p, sinks));
    return new Stop();
  }
}
