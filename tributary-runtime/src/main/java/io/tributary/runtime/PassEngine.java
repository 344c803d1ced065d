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
