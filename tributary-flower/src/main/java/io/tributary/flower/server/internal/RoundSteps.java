package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.learning.LearningProcess;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ClientFailureException;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.Outcome;
import io.tributary.runtime.TooManyClientFailuresException;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.Finite;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two invocations of a round. A round whose clients fail beyond the accepted fraction keeps
 * the model it had, as Flower's server does when a strategy returns no parameters.
 */
final class RoundSteps {
  private static final Logger LOG = LoggerFactory.getLogger(RoundSteps.class);

  private final ExecutionContext ctx;
  private final LearningProcess process;
  private final RemoteClientWork work;

  RoundSteps(ExecutionContext ctx, LearningProcess process, RemoteClientWork work) {
    this.ctx = ctx;
    this.process = process;
    this.work = work;
  }

  /**
   * The state after fit and its aggregation, the failed clients, the clients' reports, and why
   * the aggregate was refused, if it was.
   */
  record Fit(StructValue state, List<ClientFailure> failures, List<FitLog.Entry> log,
      Optional<String> refused) {
    Fit(StructValue state, List<ClientFailure> failures, List<FitLog.Entry> log) {
      this(state, failures, log, Optional.empty());
    }
  }

  /** The aggregated evaluation loss, if any, and the failed clients. */
  record Evaluate(OptionalDouble loss, List<ClientFailure> failures) {}

  Fit fit(int round, StructValue state, List<ClientProxy> clients)
      throws InterruptedException {
    work.log().drain();
    List<Tensor> ids = clients.stream().map(c -> RemoteClientWork.clientValue(c.id())).toList();
    try (Dispatch unused = work.dispatchFit(clients)) {
      Outcome out = ctx.invokeWithReport(process.next(), state, ids);
      StructValue result = (StructValue) out.value();
      StructValue next = (StructValue) result.get(0);
      // Each update and the mean were finite; model + mean can still overflow.
      Optional<String> bad = Finite.problem(
          ModelSpec.tensors((StructValue) next.get(0)), null);
      if (bad.isPresent()) {
        String why = "the new model is not finite (" + bad.get() + ")";
        LOG.warn("round {}: {}; the model is unchanged", round, why);
        return new Fit(state, out.report().failures(), work.log().drain(), Optional.of(why));
      }
      return new Fit(next, out.report().failures(), work.log().drain());
    } catch (TooManyClientFailuresException e) {
      LOG.warn("round {}: fit failed, the model is unchanged: {}", round, e.getMessage());
      return new Fit(state, e.failures(), work.log().drain());
    } catch (ClientFailureException e) {
      LOG.warn("round {}: fit failed, the model is unchanged: {}", round, e.getMessage());
      return new Fit(state, List.of(e.failure()), work.log().drain());
    } catch (LocalComputationException e) {
      // Such as every client reporting zero examples (there is nothing to average), or an
      // aggregate that overflows.
      LOG.warn("round {}: fit gave no aggregate, the model is unchanged: {}", round,
          e.getMessage());
      return new Fit(state, List.of(), work.log().drain(),
          Optional.of("no aggregate: " + e.getMessage()));
    }
  }

  Evaluate evaluate(int round, StructValue model, List<ClientProxy> clients)
      throws InterruptedException {
    if (clients.isEmpty()) {
      LOG.warn("round {}: no client is connected to evaluate the model", round);
      return new Evaluate(OptionalDouble.empty(), List.of());
    }
    List<Tensor> ids = clients.stream().map(c -> RemoteClientWork.clientValue(c.id())).toList();
    try (Dispatch unused = work.dispatchEvaluate(clients)) {
      Outcome out = ctx.invokeWithReport(process.evaluate(), model, ids);
      float loss = ((Tensor) ((StructValue) out.value()).get("loss")).getFloat(0);
      return new Evaluate(OptionalDouble.of(loss), out.report().failures());
    } catch (TooManyClientFailuresException e) {
      LOG.warn("round {}: evaluation failed: {}", round, e.getMessage());
      return new Evaluate(OptionalDouble.empty(), e.failures());
    } catch (ClientFailureException e) {
      LOG.warn("round {}: evaluation failed: {}", round, e.getMessage());
      return new Evaluate(OptionalDouble.empty(), List.of(e.failure()));
    } catch (LocalComputationException e) {
      LOG.warn("round {}: evaluation gave no aggregate: {}", round, e.getMessage());
      return new Evaluate(OptionalDouble.empty(), List.of());
    }
  }
}
