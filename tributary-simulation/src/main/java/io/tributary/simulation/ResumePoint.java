package io.tributary.simulation;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.learning.rounds.output.RoundCheckpoints;
import io.tributary.learning.rounds.output.RunFileException;
import io.tributary.learning.rounds.output.RunIdentity;
import io.tributary.learning.rounds.output.RunResume;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * Where a stopped or killed run goes on from: the newest checkpoint in its {@code model.zip}, or
 * one held in memory ({@link SimulationResult#checkpoint}, {@link
 * Simulation.Builder#resumeFrom(ResumePoint)}).
 * A checkpoint holds everything a run needs to continue bit for bit: the global model, the round
 * it ended, and the command line of the run's settings. The rest is a function of the seed and
 * the round (each round's clients, each client's shuffling), so no generator position needs
 * saving. A server optimizer's state (FedAdam's moments and step count) is the tag's updater
 * state, and a stateful aggregator's (a private aggregator's round and clipping norm) is in the
 * tag's training configuration ({@link RoundCheckpoints#AGGREGATOR_PREFIX}); with seeded noise
 * ({@code --insecure-seeded-noise}) each round's noise is drawn from the seed and the round, so
 * a resumed private run repeats too.
 *
 * @param round the last round the checkpoint covers
 * @param parameters the global model after that round
 * @param command the words of the command that started the run ({@code tributary simulate ...})
 * @param updater the server optimizer's and aggregator's state after that round; empty for an
 *     algorithm that keeps neither (and for checkpoints written before aggregator state was kept)
 * @param previous the rounds up to {@code round}, as the run's {@code metrics.jsonl} holds them
 */
public record ResumePoint(int round, SequencedMap<String, Tensor> parameters, List<String> command,
    Optional<UpdaterState> updater, List<RoundRecord> previous) {
  /** Keeps a copy of the earlier rounds. */
  public ResumePoint {
    previous = List.copyOf(previous);
  }

  /** A resume point whose earlier rounds are not at hand. */
  public ResumePoint(int round, SequencedMap<String, Tensor> parameters, List<String> command,
      Optional<UpdaterState> updater) {
    this(round, parameters, command, updater, List.of());
  }

  /**
   * The newest checkpoint of the run in {@code dir}, whatever run it belongs to.
   *
   * @throws IOException when {@code dir} holds no run with a checkpoint, or the file is malformed
   */
  public static ResumePoint read(Path dir) throws IOException {
    return read(dir, null);
  }

  /**
   * The newest checkpoint of the run in {@code dir}, refused unless every tag of its {@code
   * model.zip} carries {@code identity} (the run's settings and seed,
   * {@link SettingsSchema#identity}): another run's checkpoint is refused naming what differs.
   * Reads every tag whole, so that a damaged checkpoint is found before anything is written.
   *
   * @throws IOException when {@code dir} holds no run with a checkpoint, the file is malformed,
   *     or a tag belongs to another run ({@link RunFileException})
   */
  public static ResumePoint read(Path dir, RunIdentity identity) throws IOException {
    if (!Files.isRegularFile(dir.resolve(RunFiles.CONFIG))) {
      throw new RunFileException("holds no run to resume (no " + RunFiles.CONFIG + ")");
    }
    RunResume r = RunResume.read(dir, RoundRecord.EvaluationKind.CENTRAL, (tag, training) -> {
      long round = training.round();
      String command = training.properties().get("command");
      if (round < 1 || round > SimulationSettings.MAX_ROUNDS || command == null) {
        throw new RunFileException(RunFiles.MODEL + " tag " + tag
            + " is not a checkpoint of tributary simulate (round " + round + ", command "
            + command + ")");
      }
      if (identity != null) {
        identity.requireSame(tag, training);
      }
    });
    RoundCheckpoints.Checkpoint c = r.checkpoint();
    return new ResumePoint(r.round(), c.parameters(),
        words(c.training().properties().get("command")), c.updater(), r.previous());
  }

  /**
   * The words of a command written by {@link SimulationSettings#shellCommand()}: plain words, and
   * single-quoted ones where {@code '\''} stands for a quote.
   */
  public static List<String> words(String command) throws RunFileException {
    List<String> out = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    for (int i = 0; i < command.length(); i++) {
      char c = command.charAt(i);
      if (c == '\'') {
        int end = command.indexOf('\'', i + 1);
        if (end < 0) {
          throw new RunFileException("the checkpoint's command has an unclosed quote: "
              + command);
        }
        w.append(command, i + 1, end);
        i = end;
        inWord = true;
      } else if (c == '\\' && i + 1 < command.length()) {
        w.append(command.charAt(++i));
        inWord = true;
      } else if (c == ' ') {
        if (inWord) {
          out.add(w.toString());
          w.setLength(0);
          inWord = false;
        }
      } else {
        w.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      out.add(w.toString());
    }
    return out;
  }
}
