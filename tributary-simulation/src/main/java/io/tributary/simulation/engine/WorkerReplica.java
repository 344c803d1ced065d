package io.tributary.simulation.engine;

import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.models.Model;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.PassPart;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.UserModel;
import io.tributary.simulation.internal.RunParts;
import java.io.IOException;
import java.util.Iterator;

/**
 * A simulation rebuilt on a cluster engine's worker from the settings the driver sent: the same
 * data, model, process and cohorts, and a runtime of the settings' options, so that the parts of
 * a pass it computes are the bits the driver would compute. Close it to stop its runtime.
 */
public final class WorkerReplica implements AutoCloseable {
  private final RunParts parts;
  private final ExecutionContext context;

  private WorkerReplica(RunParts parts, ExecutionContext context) {
    this.parts = parts;
    this.context = context;
  }

  /**
   * Loads the settings' data, builds and binds the model, and starts a runtime.
   *
   * @throws IOException when the data cannot be loaded
   * @throws GraphBindingException when the model cannot be bound
   */
  public static WorkerReplica rebuild(SimulationSettings settings)
      throws IOException, GraphBindingException {
    SimulationData data = SimulationData.load(settings);
    Model model = UserModel.forRun(settings, data).model();
    RunParts parts = new RunParts(settings, data, model);
    return new WorkerReplica(parts, ExecutionContext.create(parts.options()));
  }

  /**
   * Computes groups {@code from} to {@code to} of pass {@code pass} of {@code invocation}, given
   * the server's argument of that invocation and the encoded results of its earlier passes.
   *
   * @throws io.tributary.runtime.ExecutionFailedException when the invocation fails before the
   *     pass, as it would on the driver
   */
  public PassPart computePart(Invocation invocation, Object serverArgument, int pass,
      byte[] earlier, long from, long to) {
    RunParts.Call call = parts.call(invocation, serverArgument);
    return context.computePassPart(call.computation(), call.arguments(), pass, earlier, from, to);
  }

  /**
   * Combines parts of pass {@code pass} of {@code invocation} (computed by {@link #computePart}
   * on any worker), arriving in group order, into the one part of groups {@code [from, to)},
   * computing no client and holding one part at a time: {@link ExecutionContext#combinePassParts}.
   *
   * @throws io.tributary.runtime.PassEngineException when the parts are malformed or not
   *     consecutive
   */
  public PassPart combineParts(Invocation invocation, Object serverArgument, int pass,
      byte[] earlier, long from, long to, Iterator<PassPart> parts) {
    RunParts.Call call = this.parts.call(invocation, serverArgument);
    return context.combinePassParts(call.computation(), call.arguments(), pass, earlier, from,
        to, parts);
  }

  @Override
  public void close() {
    context.close();
  }
}
