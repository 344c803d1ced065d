package io.tributary.simulation.output;

import io.tributary.learning.rounds.output.RunFileException;
import io.tributary.simulation.RunFiles;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SimulationListener;
import io.tributary.simulation.SimulationStart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Describes a new run in its directory: creates the directory, refuses one that already holds a
 * run (any of {@link RunFiles#ALL}), and writes {@code config.json} (every setting, the seed and
 * the command that repeats the run) and {@code clients.json} (each client's number of training
 * examples and the test set's size). A resumed run keeps the files it has.
 */
public final class ConfigFileListener implements SimulationListener {
  private final Path dir;

  /** Writes into {@code dir}. */
  public ConfigFileListener(Path dir) {
    this.dir = dir;
  }

  @Override
  public void started(SimulationStart start) throws IOException {
    if (start.resumed()) {
      return;
    }
    Files.createDirectories(dir);
    for (String name : RunFiles.ALL) {
      if (Files.exists(dir.resolve(name))) {
        throw new RunFileException(dir + ": already holds a run (" + name
            + "); choose another --out");
      }
    }
    Files.writeString(dir.resolve(RunFiles.CONFIG), start.settings().toJson(),
        StandardCharsets.UTF_8);
    Files.writeString(dir.resolve(RunFiles.CLIENTS), clientsJson(start.data()),
        StandardCharsets.UTF_8);
  }

  /** {@code clients.json}: each client's number of training examples and the test set's size. */
  public static String clientsJson(SimulationData data) {
    StringBuilder s = new StringBuilder("{\"train_sizes\": [");
    for (int k = 0; k < data.clientTrain().size(); k++) {
      s.append(k == 0 ? "" : ", ").append(data.clientTrain().get(k).size());
    }
    return s.append("], \"test_size\": ").append(data.test().size()).append("}\n").toString();
  }
}
