package io.tributary.cli;

import io.tributary.format.ModelFile;
import io.tributary.format.ModelTag;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SequencedMap;

/**
 * Where a stopped or killed run goes on from: the newest checkpoint in its {@code model.zip}.
 * A checkpoint holds everything a run needs to continue bit for bit: the global model, the round
 * it ended, and the command line of the run's settings. The rest is a function of the seed and
 * the round (each round's clients, each client's shuffling), so no generator position needs
 * saving; an algorithm with server state beyond the model would store it as updater state.
 *
 * @param round the last round the checkpoint covers
 * @param parameters the global model after that round
 * @param command the words of the command that started the run ({@code tributary simulate ...})
 */
record ResumePoint(int round, SequencedMap<String, Tensor> parameters, List<String> command) {
  /**
   * The newest checkpoint of the run in {@code dir}.
   *
   * @throws IOException when {@code dir} holds no run with a checkpoint, or the file is malformed
   */
  static ResumePoint read(Path dir) throws IOException {
    Path file = dir.resolve(Simulation.MODEL);
    if (!Files.isRegularFile(dir.resolve(Simulation.CONFIG))) {
      throw new TensorFileException("holds no run to resume (no " + Simulation.CONFIG + ")");
    }
    if (!Files.isRegularFile(file)) {
      throw new TensorFileException("has no checkpoint to resume from (no " + Simulation.MODEL
          + "; the run stopped before its first checkpoint: start it again)");
    }
    try (ModelFile m = ModelFile.open(file)) {
      ModelTag tag = m.newest();
      long round = tag.trainingConfig().round();
      String command = tag.trainingConfig().properties().get("command");
      if (round < 1 || round > SimulationConfig.MAX_ROUNDS || command == null) {
        throw new TensorFileException(Simulation.MODEL + " tag " + tag.name()
            + " is not a checkpoint of tributary simulate (round " + round + ", command "
            + command + ")");
      }
      return new ResumePoint((int) round, tag.parameters(), words(command));
    }
  }

  /**
   * The words of a command written by {@link SimulationConfig#shellCommand()}: plain words, and
   * single-quoted ones where {@code '\''} stands for a quote.
   */
  static List<String> words(String command) throws TensorFileException {
    List<String> out = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    for (int i = 0; i < command.length(); i++) {
      char c = command.charAt(i);
      if (c == '\'') {
        int end = command.indexOf('\'', i + 1);
        if (end < 0) {
          throw new TensorFileException("the checkpoint's command has an unclosed quote: "
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
