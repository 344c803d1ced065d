package io.tributary.spark;

import io.tributary.runtime.PassPart;
import io.tributary.simulation.engine.Invocation;
import io.tributary.simulation.engine.WorkerReplica;
import java.util.Iterator;

/** What a Spark task runs on an executor: its groups of a pass, replayed from a {@link PassJob}. */
final class WorkerPass {
  private WorkerPass() {}

  /**
   * Computes groups {@code range} of {@code job}'s pass on this executor.
   *
   * @throws WorkerDataException when this executor cannot rebuild the simulation
   */
  static PartBytes compute(PassJob job, GroupRange range) {
    WorkerReplica replica = WorkerReplicas.of(job);
    Invocation invocation = new Invocation(Invocation.Kind.values()[job.kind()], job.round());
    Object serverArgument = ValueCodec.decode(job.serverArgument());
    PassPart part;
    // One task at a time per replica: whether the runtime computes parts of one context from
    // several threads at once is not settled; each task uses the settings' --threads inside.
    synchronized (replica) {
      part = replica.computePart(invocation, serverArgument, job.pass(), job.earlier(),
          range.from(), range.to());
    }
    return PartBytes.of(part);
  }

  /**
   * Combines the parts of combined range {@code range} of {@code job}'s pass on this executor,
   * arriving in group order (Spark's sorted shuffle, spilled to disk where large), one at a time:
   * the second stage of the pass, so the driver receives one part per combined range.
   */
  static PartBytes combine(PassJob job, GroupRange range, Iterator<PartBytes> parts) {
    Iterator<PassPart> in = new Iterator<>() {
      @Override
      public boolean hasNext() {
        return parts.hasNext();
      }

      @Override
      public PassPart next() {
        return parts.next().toPart();
      }
    };
    WorkerReplica replica = WorkerReplicas.of(job);
    Invocation invocation = new Invocation(Invocation.Kind.values()[job.kind()], job.round());
    Object serverArgument = ValueCodec.decode(job.serverArgument());
    PassPart part;
    synchronized (replica) {
      part = replica.combineParts(invocation, serverArgument, job.pass(), job.earlier(),
          range.from(), range.to(), in);
    }
    return PartBytes.of(part);
  }
}
