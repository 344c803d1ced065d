package io.tributary.learning.rounds;

import io.tributary.core.values.StructValue;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.RoundOutput;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ClientFailureException;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.Outcome;
import io.tributary.runtime.TooManyClientFailuresException;
import io.tributary.tensor.Finite;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one round step of Tributary, used by the simulator and by the Flower server alike (through
 * {@link RunLoop}, the one loop over rounds): each round runs the process's {@code next} over the population's fit cohort, checks the new model,
 * applies the failure policy, evaluates the model on the population's evaluation cohorts and
 * tells the listener. What differs between a simulation and a server is only the population
 * (datasets or connected clients), the policy, and what the listener does with each report.
 */
public final class RoundLoop {
  private final ExecutionContext context;
  private final LearningProcess process;
  private final Population population;
  private final FailurePolicy policy;

  /** A loop running {@code process} through {@code context} over {@code population}. */
  public RoundLoop(ExecutionContext context, LearningProcess process, Population population,
      FailurePolicy policy) {
    this.context = context;
    this.process = process;
    this.population = population;
    this.policy = policy;
  }

  /** The process's first server state. */
  public StructValue initialize() {
    return (StructValue) context.invoke(process.initialize());
  }

  /**
   * Runs round {@code round} from {@code state}.
   *
   * @throws InterruptedException when waiting for clients is interrupted
   */
  public RoundReport round(int round, StructValue state) throws InterruptedException {
    return round(round, state, RoundProgress.NONE);
  }

  /**
   * Runs round {@code round} from {@code state}, telling {@code progress} its start, each
   * stage's start and end (with the stage's failure reasons), and each client as it answers or
   * fails: the population tells them if it {@linkplain Population#tellsEachClient can} (a
   * server), the runtime's passes otherwise (a simulation).
   *
   * @throws InterruptedException when waiting for clients is interrupted
   */
  public RoundReport round(int round, StructValue state, RoundProgress progress)
      throws InterruptedException {
    long t0 = System.nanoTime();
    progress.roundStarted(round);
    Cohort cohort = population.fitCohort(round);
    progress.stage(round, cohort.name(), cohort.size());
    StructValue next = state;
    Optional<RoundOutput.Metrics> metrics = Optional.empty();
    List<ClientFailure> failures = List.of();
    Optional<String> refused = Optional.empty();
    boolean fitted = false;
    try (Population.Invocation unused = population.open(Population.Phase.FIT, round, cohort,
        progress)) {
      Outcome out = context.invokeObserved(process.next(),
          ClientEvents.of(round, cohort, progress, population), state, cohort.argument());
      RoundOutput result = RoundOutput.of(out.value());
      failures = out.report().failures();
      fitted = true;
      // Each update and their mean were checked finite; model + mean can still overflow.
      Optional<String> bad = Finite.problem(tensors(result.model()), null);
      if (bad.isPresent()) {
        String why = "the new global model is not finite and is refused: " + bad.get();
        if (policy == FailurePolicy.STOP_RUN) {
          throw new LocalComputationException(why);
        }
        refused = Optional.of(why);
      } else {
        next = result.state();
        metrics = Optional.of(result.metrics());
      }
    } catch (TooManyClientFailuresException e) {
      stopIfAsked(e);
      failures = e.failures();
      refused = Optional.of(e.getMessage());
    } catch (ClientFailureException e) {
      stopIfAsked(e);
      failures = List.of(e.failure());
      refused = Optional.of(e.getMessage());
    } catch (LocalComputationException e) {
      // Such as every client reporting zero examples (nothing to average), or an overflow.
      stopIfAsked(e);
      refused = Optional.of("no aggregate: " + e.getMessage());
    }
    // A fit that failed as a whole (too many failures, no aggregate) took no client's result.
    progress.stageEnded(round, cohort.name(), fitted ? cohort.size() - failures.size() : 0,
        reasons(failures, cohort));
    List<RoundReport.Evaluation> evaluations = new ArrayList<>();
    StructValue model = next.struct("model");
    for (Cohort c : population.evaluationCohorts(round)) {
      String stage = c.name().startsWith("evaluate") ? c.name() : "evaluate " + c.name();
      if (c.size() > 0) {
        progress.stage(round, stage, c.size());
      }
      RoundReport.Evaluation e = evaluate(round, model, c, progress);
      if (c.size() > 0) {
        progress.stageEnded(round, stage, e.output().isPresent()
            ? c.size() - e.failures().size() : 0, reasons(e.failures(), c));
      }
      evaluations.add(e);
    }
    return new RoundReport(round, cohort, next, metrics, failures, refused, evaluations,
        (System.nanoTime() - t0) / 1e9);
  }

  /** The failures' reasons, each naming its client as the cohort does. */
  private static List<String> reasons(List<ClientFailure> failures, Cohort cohort) {
    List<String> out = new ArrayList<>(failures.size());
    for (ClientFailure f : failures) {
      out.add(RoundReport.describe(f, cohort));
    }
    return out;
  }

  private RoundReport.Evaluation evaluate(int round, StructValue model, Cohort cohort,
      RoundProgress progress) {
    if (cohort.size() == 0) {
      return new RoundReport.Evaluation(cohort, Optional.empty(), List.of());
    }
    try (Population.Invocation unused = population.open(Population.Phase.EVALUATE, round, cohort,
        progress)) {
      Outcome out = context.invokeObserved(process.evaluate(),
          ClientEvents.of(round, cohort, progress, population), model, cohort.argument());
      return new RoundReport.Evaluation(cohort, Optional.of((StructValue) out.value()),
          out.report().failures());
    } catch (TooManyClientFailuresException e) {
      stopIfAsked(e);
      return new RoundReport.Evaluation(cohort, Optional.empty(), e.failures());
    } catch (ClientFailureException e) {
      stopIfAsked(e);
      return new RoundReport.Evaluation(cohort, Optional.empty(), List.of(e.failure()));
    } catch (LocalComputationException e) {
      stopIfAsked(e);
      return new RoundReport.Evaluation(cohort, Optional.empty(), List.of());
    }
  }

  private void stopIfAsked(RuntimeException e) {
    if (policy == FailurePolicy.STOP_RUN) {
      throw e;
    }
  }

  /** Every tensor of a struct of tensors and structs, depth first. */
  private static List<Tensor> tensors(StructValue s) {
    List<Tensor> out = new ArrayList<>();
    for (Object v : s.values()) {
      if (v instanceof Tensor t) {
        out.add(t);
      } else if (v instanceof StructValue inner) {
        out.addAll(tensors(inner));
      }
    }
    return out;
  }
}
