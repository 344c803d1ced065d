package io.tributary.spark;

import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.PassPart;
import io.tributary.simulation.internal.RunParts;

/**
 * The one place a worker asks the runtime for a pass part.
 *
 * <p>AFTER-MERGE: the runtime's {@code ExecutionContext.computePassPart(Computation, List<Object>,
 * int, byte[], long, long)} is being written on another branch; once it is merged, the body
 * becomes {@code return context.computePassPart(call.computation(), call.arguments(), pass,
 * earlier, range.from(), range.to());}.
 */
final class RuntimePasses {
  private RuntimePasses() {}

  /**
   * Groups {@code range} of pass {@code pass} of {@code call}, given the earlier passes' results.
   *
   * @throws UnsupportedOperationException until the runtime's side is merged
   */
  static PassPart computePassPart(ExecutionContext context, RunParts.Call call, int pass,
      byte[] earlier, GroupRange range) {
    throw new UnsupportedOperationException("this build's runtime cannot compute pass parts "
        + "(ExecutionContext.computePassPart is not merged yet)");
  }
}
