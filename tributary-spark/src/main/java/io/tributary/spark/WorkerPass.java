package io.tributary.spark;

import io.tributary.runtime.PassPart;
import io.tributary.simulation.engine.Invocation;
import io.tributary.simulation.engine.WorkerReplica;
import java.util.ArrayList;
import java.util.List;

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
   * Combines {@code parts} (consecutive once sorted) of {@code job}'s pass into one on this
   * executor: the second stage of the pass, so the driver receives one part per combined range.
   */
  static PartBytes combine(PassJob job, Iterable<PartBytes> parts) {
    List<PassPart> in = new ArrayList<>();
    parts.forEach(p -> in.add(p.toPart()));
    WorkerReplica replica = WorkerReplicas.of(job);
    Invocation invocation = new Invocation(Invocation.Kind.values()[job.kind()], job.round());
    Object serverArgument = ValueCodec.decode(job.serverArgument());
    PassPart part;
    synchronized (replica) {
      part = replica.combineParts(invocation, serverArgument, job.pass(), job.earlier(), in);
    }
    return PartBytes.of(part);
  }
}
