package io.tributary.simulation;

import io.tributary.format.TrainingConfig;
import io.tributary.graph.GraphFb;
import io.tributary.graph.models.Model;
import io.tributary.learning.rounds.Checkpoints;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunStart;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * A simulation about to run its first round.
 *
 * @param settings every setting of the run
 * @param data the clients' training data and the test data
 * @param model the network the clients train
 * @param firstRound the first round to run: 1, or the round after the checkpoint of a resumed run
 * @param earlier the rounds a resumed run had finished before it stopped (empty for a new run)
 */
public record SimulationStart(SimulationSettings settings, SimulationData data, Model model,
    int firstRound, History earlier) implements RunStart {
  /** The rounds a resumed run had finished before it stopped: {@link #earlier}'s rounds. */
  @Override
  public List<RoundRecord> previous() {
    return earlier.rounds();
  }

  /** The settings as the report shows them: {@code settings().display()}. */
  @Override
  public SequencedMap<String, String> settingsDisplay() {
    return settings.display();
  }

  /** The report's title: the algorithm, the data, the model and the clients. */
  @Override
  public String title() {
    return settings.algorithm().name() + " on " + settings.dataset() + " ("
        + settings.model().cliName() + ", " + settings.clients() + " clients)";
  }

  /** The run's last round: {@code settings().rounds()}. */
  @Override
  public int lastRound() {
    return settings.rounds();
  }

  /**
   * A checkpoint every {@code checkpointEvery} rounds, each recording the client training
   * settings and the algorithm's hyperparameters, the algorithm, the data, the command, the
   * graph's roles and the run's identity (which a resume checks), with the model's graph, so
   * that a checkpoint reads back as a model ({@link UserModel#read}).
   */
  @Override
  public Checkpoints checkpoints() {
    SequencedMap<String, Double> hyper = new LinkedHashMap<>();
    hyper.put("learning_rate", settings.learningRate());
    hyper.put("mu", settings.mu());
    hyper.put("local_epochs", (double) settings.localEpochs());
    hyper.put("batch_size", (double) settings.batchSize());
    hyper.putAll(RunAlgorithm.options(settings.algorithm()));
    settings.clientOptimizer().hyperparameters().forEach((k, v) -> hyper.put("client_" + k, v));
    SequencedMap<String, String> props = new LinkedHashMap<>();
    props.put("algorithm", settings.algorithm().name());
    props.put("dataset", settings.dataset().toString());
    props.put("command", settings.shellCommand());
    props.putAll(UserModel.roles(model));
    props.putAll(SettingsSchema.identity(settings).properties());
    return new Checkpoints(settings.checkpointEvery(),
        TrainingConfig.of(settings.clientOptimizer().name(), hyper).withProperties(props),
        Optional.of(ByteBuffer.wrap(GraphFb.toBytes(model.graph()))));
  }

  /**
   * One line naming the run (algorithm, data, clients, model and its size, rounds, output
   * directory), and for a resumed run one naming the checkpoint it goes on from.
   */
  @Override
  public List<String> banner() {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "%s on %s: %d clients (%d per round), model %s (%d "
        + "parameters), %d rounds%s", settings.algorithm().name(), settings.dataset(),
        data.clientTrain().size(), settings.clientsPerRound(), settings.model().cliName(),
        model.parameterCount(), settings.rounds(),
        settings.out() == null ? "" : "; writing " + settings.out()));
    if (resumed()) {
      lines.add(String.format(Locale.ROOT, "resuming after round %d (the checkpoint in %s)",
          firstRound - 1, settings.out().resolve(RunFiles.MODEL)));
    }
    return lines;
  }

  /** Whether the run goes on from a checkpoint rather than from round 1. */
  public boolean resumed() {
    return firstRound > 1;
  }
}
