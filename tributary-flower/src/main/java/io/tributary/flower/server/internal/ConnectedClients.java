package io.tributary.flower.server.internal;

import io.tributary.flower.server.NotEnoughClientsException;
import io.tributary.flower.Scalar;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.rounds.Cohort;
import io.tributary.learning.rounds.Population;
import io.tributary.learning.rounds.RoundProgress;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's population for the shared round loop: each round's fit cohort is sampled from the
 * connected clients (waiting for enough of them), the evaluation cohort from those connected
 * then; a client's value is its id, and invocations dispatch the instructions to the cohort.
 */
final class ConnectedClients implements Population {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectedClients.class);

  private final ServerConfig config;
  private final ClientManager manager;
  private final RemoteClientWork work;
  private final Traffic traffic;
  private final Map<String, Scalar> fitConfig;
  private final Optional<SecureFit> secure;
  private final SecureCohort.Form secureForm;
  /** What the next round's fit takes from the rounds before it. */
  private NextRound next = new NextRound(Map.of(), Long.MAX_VALUE);
  /** The fit round sampled by {@link #fitCohort}, opened by {@link #open}. */
  private FitRound fitRound;
  private List<RemoteClient> fitClients = List.of();
  private List<RemoteClient> evalClients = List.of();
  private long upAtStart;
  private long downAtStart;

  /** The fit-config entries and example bound the rounds before set for the next. */
  private record NextRound(Map<String, Scalar> config, long relativeMaxExamples) {}

  /**
   * @param fitConfig the algorithm's fit config, sent in every round
   * @param secure the secure round, when fit rounds aggregate securely
   * @param secureForm how a secure round's outcome reaches the round computation
   */
  ConnectedClients(ServerConfig config, ClientManager manager, RemoteClientWork work,
      Traffic traffic, Map<String, Scalar> fitConfig, Optional<SecureFit> secure,
      SecureCohort.Form secureForm) {
    this.config = config;
    this.manager = manager;
    this.work = work;
    this.traffic = traffic;
    this.fitConfig = Map.copyOf(fitConfig);
    this.secure = secure;
    this.secureForm = secureForm;
  }

  /**
   * Sets what the next rounds' fit takes from the state before them: fit-config entries (they
   * win over the algorithm's) and the round-relative bound on a client's example count.
   */
  void nextRound(Map<String, Scalar> config, long relativeMaxExamples) {
    next = new NextRound(Map.copyOf(config), relativeMaxExamples);
  }

  /** The round-relative example bound of the next round. */
  long relativeMaxExamples() {
    return next.relativeMaxExamples();
  }

  /** The clients of the current round's evaluation cohort, in the cohort's order. */
  List<RemoteClient> evaluationClients() {
    return evalClients;
  }

  /** The current round's fit config (empty before the first round). */
  Map<String, Scalar> roundFitConfig() {
    FitRound r = fitRound;
    return r == null ? Map.of() : r.config();
  }

  /** The current round (0 before the first). */
  int currentRound() {
    FitRound r = fitRound;
    return r == null ? 0 : r.round();
  }

  @Override
  public Cohort fitCohort(int round) throws InterruptedException {
    upAtStart = traffic.bytesUp();
    downAtStart = traffic.bytesDown();
    try {
      fitClients = manager.sample(config.fractionFit(), config.minClients(), config.seed(),
          round, config.clientWait());
    } catch (NotEnoughClientsException e) {
      throw new TooFewClients(e);
    }
    Map<String, Scalar> c = FitRound.config(fitConfig, next.config(), round);
    Optional<SecureCohort> cohort = secure.map(s -> new SecureCohort(s, secureForm));
    fitRound = new FitRound(round, fitClients, c, next.relativeMaxExamples(),
        RoundProgress.NONE, cohort);
    if (cohort.isPresent()) {
      // The secure round stands in for the clients: one pseudo-client whose update is the
      // aggregated mean, or under client-side DP one share per sampled client.
      return new Cohort("fit (SecAgg+)", List.<Object>copyOf(fitRound.cohort()),
          cohort.get().names(fitClients.size()));
    }
    return cohort("fit", fitClients);
  }

  @Override
  public List<Cohort> evaluationCohorts(int round) {
    if (config.fractionEvaluate() == 0) {
      // No federated evaluation, as Flower's FedAvg with fraction_evaluate=0.0.
      evalClients = List.of();
      return List.of();
    }
    // Evaluation does not wait: clients lost during fit must not stall the round.
    evalClients = manager.sampleNow(config.fractionEvaluate(), config.minClients(),
        ~config.seed(), round);
    if (evalClients.isEmpty()) {
      LOG.warn("round {}: no client is connected to evaluate the model", round);
    }
    return List.of(cohort("evaluate", evalClients));
  }

  @Override
  public boolean tellsEachClient() {
    return true;
  }

  @Override
  public Invocation open(Phase phase, int round, Cohort cohort) {
    return open(phase, round, cohort, RoundProgress.NONE);
  }

  @Override
  public Invocation open(Phase phase, int round, Cohort cohort, RoundProgress progress) {
    RoundProgress counted = progress == RoundProgress.NONE ? progress
        : new WithTraffic(progress);
    if (phase == Phase.EVALUATE) {
      return work.open(new EvaluateRound(round, evalClients, Map.of(), counted), true)::close;
    }
    FitRound r = fitRound;
    if (r == null || r.round() != round) {
      throw new IllegalStateException("round " + round + "'s fit opened before its cohort");
    }
    // No exclusions of an earlier round are left, should the secure round not run.
    secure.ifPresent(SecureFit::reset);
    return work.open(new FitRound(r.round(), r.clients(), r.config(), r.relativeMaxExamples(),
        counted, r.secure()), true)::close;
  }

  /** Tells the round's bytes so far after each client's answer or failure. */
  private final class WithTraffic implements RoundProgress {
    private final RoundProgress inner;

    WithTraffic(RoundProgress inner) {
      this.inner = inner;
    }

    @Override
    public void stage(int round, String stage, int clients) {
      inner.stage(round, stage, clients);
    }

    @Override
    public void clientReported(int round, String client) {
      inner.clientReported(round, client);
      inner.traffic(round, bytesUp(), bytesDown());
    }

    @Override
    public void clientFailed(int round, String client, String reason) {
      inner.clientFailed(round, client, reason);
      inner.traffic(round, bytesUp(), bytesDown());
    }

    @Override
    public void stageEnded(int round, String stage, int reported, List<String> failures) {
      inner.stageEnded(round, stage, reported, failures);
      inner.traffic(round, bytesUp(), bytesDown());
    }
  }

  /**
   * Carries {@link NotEnoughClientsException} out of the round loop, whose population may only
   * throw unchecked exceptions; {@link RoundRunner} unwraps it.
   */
  static final class TooFewClients extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooFewClients(NotEnoughClientsException cause) {
      super(cause.getMessage(), cause);
    }

    @Override
    public synchronized NotEnoughClientsException getCause() {
      return (NotEnoughClientsException) super.getCause();
    }
  }

  /** The clients sampled for this round's fit. */
  List<RemoteClient> fitClients() {
    return fitClients;
  }

  /** Bytes received from clients since this round began. */
  long bytesUp() {
    return traffic.bytesUp() - upAtStart;
  }

  /** Bytes sent to clients since this round began. */
  long bytesDown() {
    return traffic.bytesDown() - downAtStart;
  }

  /** Clients named by their index in the cohort and their id, as failure reasons show them. */
  private static Cohort cohort(String name, List<RemoteClient> clients) {
    return new Cohort(name,
        clients.stream().map(c -> RemoteClientWork.clientValue(c.id())).toList(),
        java.util.stream.IntStream.range(0, clients.size())
            .mapToObj(i -> "client " + i + " (" + clients.get(i).id() + ")").toList());
  }
}
