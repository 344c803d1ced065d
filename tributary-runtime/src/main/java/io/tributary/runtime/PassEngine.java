package io.tributary.runtime;

import java.util.List;

/**
 * Where the client passes of an invocation run, when not on this JVM's threads: a population
 * binding such as a Spark cluster.
 *
 * <p>The runtime plans an invocation as usual; for each client pass it asks the engine for the
 * pass's {@link PassPart}s, each computed by a worker that replays the same invocation with
 * {@link ExecutionContext#computePassPart} over a range of the pass's groups. The runtime checks
 * that the parts cover every group once and merges their subtrees with the pass's
 * {@link ReductionTree}, so the result is bit-identical to a local run whatever the ranges.
 * An engine must therefore make each worker's replay a pure function of what the request says
 * (computation, arguments, earlier results), and may retry a part freely.
 */
public interface PassEngine {
  /**
   * Computes every group of {@code request}'s pass, in parts over consecutive groups.
   *
   * @throws PassEngineException when the pass cannot be computed (the cluster is unreachable, a
   *     part failed more often than the engine retries); the invocation then fails with it
   */
  List<PassPart> run(PassRequest request);

  /**
   * Whether this engine runs secure sums where the clients are ({@link #runSecure}). When it
   * does, a pass with a secure sum ({@code federated_secure_sum},
   * {@code federated_secure_sum_bitwidth}) is run with {@link #runSecure}, and no client's
   * input to a secure sum reaches the driver; when it does not, a secure sum with a
   * {@link SecureSummation} is refused and one without is a plain sum of the parts.
   */
  default boolean runsSecureSums() {
    return false;
  }

  /**
   * Computes a pass with secure sums over one client per group: each client's part is computed
   * where the client is, by {@link ExecutionContext#computeClientPart} with the client side of
   * a secure sum protocol for {@code spec}, and the engine runs the protocol's server side,
   * which reveals only the sum of the survivors' inputs ({@link SecurePass}). The runtime
   * checks the parts and the survivors, counts a client whose part arrived but whose input did
   * not as failed, merges the survivors' parts and splits the sum into the pass's secure sums.
   *
   * @param spec the pass's secure sums as one vector, which the clients' inputs follow
   * @throws PassEngineException when the pass cannot be computed
   * @throws SecureSumException when the protocol cannot produce the sum (too few survivors, a
   *     message failed its check); no partial sum is revealed then
   */
  default SecurePass runSecure(PassRequest request, SecureSumSpec spec) {
    throw new PassEngineException("this pass engine does not run secure sums where the clients "
        + "are, but pass " + request.pass() + " computes " + spec.describe(), null);
  }

  /**
   * The bytes of a value of the runtime (a tensor, a struct or a list of them), for an engine
   * that ships a request's arguments to its workers: the format of the runtime's own pass bytes,
   * bit for bit, read back with {@link #decodeValue}.
   *
   * @throws PassEngineException for a value that cannot travel
   */
  static byte[] encodeValue(Object value) {
    return io.tributary.runtime.executor.internal.pass.PassCodec.encodeValue(value);
  }

  /**
   * The value whose bytes {@link #encodeValue} gave; every count is checked before allocating.
   *
   * @throws PassEngineException when the bytes are malformed
   */
  static Object decodeValue(byte[] bytes) {
    return io.tributary.runtime.executor.internal.pass.PassCodec.decodeValue(bytes);
  }
}
