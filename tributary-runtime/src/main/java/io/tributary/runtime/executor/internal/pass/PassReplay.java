package io.tributary.runtime.executor.internal.pass;

import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.PassPart;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import java.util.List;

/**
 * A worker's replay of an invocation for a {@link io.tributary.runtime.PassEngine}: the passes
 * before {@link #pass} are answered from the driver's earlier results instead of computed, pass
 * {@link #pass} is computed for groups {@code [fromGroup, toGroup)} only, and the invocation
 * stops there, its part encoded.
 *
 * <p>Used by {@link io.tributary.runtime.ExecutionContext#computePassPart}; one replay serves one
 * invocation.
 */
public final class PassReplay {
  private final int pass;
  private final byte[] earlier;
  private final long fromGroup;
  private final long toGroup;
  private List<List<Object>> earlierValues;
  private volatile PassPart part;

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
    if (pass < 0 || fromGroup < 0 || toGroup < fromGroup) {
      throw new PassEngineException("no pass part " + pass + " of groups [" + fromGroup + ", "
          + toGroup + ")", null);
    }
    this.pass = pass;
    this.earlier = earlier.clone();
    this.fromGroup = fromGroup;
    this.toGroup = toGroup;
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
   * Computes this replay's groups of the pass with {@code sinks} over {@code clients} clients,
   * then stops the invocation.
   */
  public RuntimeException compute(int clients, List<Sink> sinks, ClientPass.PassSettings settings,
      long[] cost) {
    int groups = ClientPass.groups(clients);
    if (toGroup > groups) {
      throw new PassEngineException("groups [" + fromGroup + ", " + toGroup + ") are not inside"
          + " pass " + pass + "'s " + groups + " groups (" + clients + " clients)", null);
    }
    ClientPass.Part p = new ClientPass(clients, sinks, settings, cost, (int) fromGroup,
        (int) toGroup).runRange();
    part = new PassPart(fromGroup, toGroup, PassCodec.encodePart(p, sinks));
    return new Stop();
  }
}
