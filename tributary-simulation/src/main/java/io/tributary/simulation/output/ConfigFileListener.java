package io.tributary.simulation.output;

import io.tributary.learning.rounds.output.RunFileException;
import io.tributary.simulation.RunFiles;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SimulationListener;
import io.tributary.simulation.SimulationStart;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
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
            + "); choose another output directory");
      }
    }
    Files.writeString(dir.resolve(RunFiles.CONFIG), start.settings().toJson(),
        StandardCharsets.UTF_8);
    try (Writer w = Files.newBufferedWriter(dir.resolve(RunFiles.CLIENTS),
        StandardCharsets.UTF_8)) {
      writeClientsJson(start.data(), w);
    }
  }

  /** {@code clients.json}: each client's number of training examples and the test set's size. */
  public static String clientsJson(SimulationData data) {
    StringWriter s = new StringWriter();
    try {
      writeClientsJson(data, s);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("writing to memory failed", e);
    }
    return s.toString();
  }

  /**
   * Writes {@code clients.json} to {@code out} client by client, from {@link
   * SimulationData#clientSize}: a generated population of millions is never made.
   */
  public static void writeClientsJson(SimulationData data, Writer out) throws IOException {
    out.write("{\"train_sizes\": [");
    for (int k = 0; k < data.clientTrain().size(); k++) {
      if (k > 0) {
        out.write(", ");
      }
      out.write(Integer.toString(data.clientSize(k)));
    }
    out.write("], \"test_size\": " + data.test().size() + "}\n");
  }
}
