package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.server.FlowerServerException;
import io.tributary.flower.server.RoundListener;
import io.tributary.flower.server.RoundMetrics;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.FederatedLearning;
import io.tributary.learning.LearningProcess;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.OptionalDouble;
import java.util.SequencedMap;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the configured rounds: the process's {@code next} (fit, aggregate) and {@code evaluate}
 * (evaluate, aggregate) invoked by the runtime with the sampled clients' ids as CLIENTS.
 */
public final class RoundRunner {
  private static final Logger LOG = LoggerFactory.getLogger(RoundRunner.class);
  /** The runtime's own limit on a client lies this far behind the instruction timeout. */
  private static final Duration BACKSTOP = Duration.ofSeconds(1);

  private final ServerConfig config;
  private final ClientManager manager;
  private final Traffic traffic;
  private final SerializerRegistry registry;

  public RoundRunner(ServerConfig config, ClientManager manager, Traffic traffic,
      SerializerRegistry registry) {
    this.config = config;
    this.manager = manager;
    this.traffic = traffic;
    this.registry = registry;
  }

  /**
   * Runs every round.
   *
   * @throws FlowerServerException if too few clients connect, the initial parameters cannot be
   *     had, or the listener fails
   */
  public RunResult run(RoundListener listener) throws FlowerServerException,
      InterruptedException {
    manager.waitFor(config.minClients(), config.clientWait());
    SequencedMap<String, Tensor> initial = new InitialModel(config, manager, registry).fetch();
    java.util.Optional<String> nonFinite = io.tributary.tensor.Finite.problem(
        List.copyOf(initial.values()), List.copyOf(initial.sequencedKeySet()));
    if (nonFinite.isPresent()) {
      throw new FlowerServerException("the initial parameters are not finite: "
          + nonFinite.get());
    }
    List<String> names = List.copyOf(initial.sequencedKeySet());
    ModelSpec spec;
    try {
      spec = ModelSpec.of(List.copyOf(initial.values()));
    } catch (IllegalArgumentException e) {
      throw new FlowerServerException(e.getMessage(), e);
    }
    RemoteClientWork work = new RemoteClientWork(manager, registry, spec, config.roundTimeout(),
        config.algorithm().fitConfig(), java.util.Map.of());
    LearningProcess process = FederatedLearning.process(config.algorithm().name(),
        RemoteClientWork.initialize(spec, List.copyOf(initial.values())), work.fit(),
        work.evaluation());
    LOG.info("{} over {} clients per round at least; round computation {}",
        process.name(), config.minClients(), process.next().type());
    List<RoundMetrics> all = new ArrayList<>();
    try (ExecutionContext ctx = ExecutionContext.create(options(config))) {
      RoundSteps steps = new RoundSteps(ctx, process, work);
      StructValue state = (StructValue) ctx.invoke(process.initialize());
      for (int round = config.initial().roundsDone() + 1; round <= config.rounds(); round++) {
        long start = System.nanoTime();
        long up = traffic.bytesUp();
        long down = traffic.bytesDown();
        List<ClientProxy> fitClients = manager.sample(config.fractionFit(), config.minClients(),
            config.seed(), round, config.clientWait());
        RoundSteps.Fit fit = steps.fit(round, state, fitClients);
        state = fit.state();
        // Evaluation does not wait: clients lost during fit must not stall the round.
        List<ClientProxy> evalClients = manager.sampleNow(config.fractionEvaluate(),
            config.minClients(), ~config.seed(), round);
        RoundSteps.Evaluate eval = steps.evaluate(round, (StructValue) state.get(0), evalClients);
        List<String> reasons = new ArrayList<>();
        fit.failures().forEach(f -> reasons.add("fit: " + named(f, fitClients)));
        fit.refused().ifPresent(r -> reasons.add("fit: aggregate refused, model unchanged: " + r));
        eval.failures().forEach(f -> reasons.add("evaluate: " + named(f, evalClients)));
        Set<String> failedIds = fit.failures().stream().map(f -> fitClients.get(f.client()).id())
            .collect(Collectors.toSet());
        OptionalDouble fitLoss = FitLog.weightedLoss(fit.log(), failedIds,
            config.maxExamplesPerClient());
        RoundMetrics m = new RoundMetrics(round, fitClients.size(),
            fit.failures().size() + eval.failures().size(), fitLoss, eval.loss(),
            (System.nanoTime() - start) / 1e9, traffic.bytesUp() - up,
            traffic.bytesDown() - down, reasons, work.drainNonFiniteMetrics());
        all.add(m);
        try {
          listener.roundEnded(m, named(names, (StructValue) state.get(0)));
        } catch (IOException e) {
          throw new FlowerServerException("round " + round + ": " + e.getMessage(), e);
        }
      }
      return new RunResult(all, named(names, (StructValue) state.get(0)));
    }
  }

  /** A failure's line, naming the client by its id as well as by its index in the sample. */
  private static String named(io.tributary.runtime.ClientFailure f, List<ClientProxy> sampled) {
    String d = f.describe();
    if (f.client() >= 0 && f.client() < sampled.size()) {
      String id = sampled.get(f.client()).id();
      if (!d.contains(id)) {
        return d.replaceFirst("^client " + f.client() + " ",
            java.util.regex.Matcher.quoteReplacement("client " + f.client() + " (" + id + ") "));
      }
    }
    return d;
  }

  /** The runtime's options for a server's rounds: tolerance, weight bound, client timeout. */
  static RuntimeOptions options(ServerConfig config) {
    RuntimeOptions o = RuntimeOptions.defaults().withThreads(config.maxConcurrentClients())
        .withMinSuccessFraction(config.minSuccessFraction()).withSeed(config.seed())
        .withMaxWeight(config.maxExamplesPerClient(), config.overMaxExamples());
    return config.roundTimeout().map(t -> o.withClientTimeout(t.plus(BACKSTOP))).orElse(o);
  }

  private static SequencedMap<String, Tensor> named(List<String> names, StructValue model) {
    SequencedMap<String, Tensor> out = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      out.put(names.get(i), (Tensor) model.get(i));
    }
    return out;
  }
}
