package io.tributary.simulation.output;

import io.tributary.format.ModelWriter;
import io.tributary.format.TagContents;
import io.tributary.format.TrainingConfig;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SequencedMap;

/**
 * A run's {@code model.zip}: one ADR-0001 tag per checkpointed round ({@code round-0010}, ...,
 * zero-padded so that tags sort by round), each with the parameters, the training settings and,
 * where there is one, the model's graph. The first checkpoint creates the file; later ones are
 * added as tags without rewriting the earlier ones; every write replaces the file atomically.
 * The simulator ({@link CheckpointListener}, on a thread of its own) and the Flower server write
 * their checkpoints through this one class.
 */
public final class RoundCheckpoints {
  private final Path file;
  private final int digits;

  /** Checkpoints of a run of {@code rounds} rounds into {@code file}. */
  public RoundCheckpoints(Path file, int rounds) {
    this.file = file;
    this.digits = Math.max(4, Integer.toString(rounds).length());
  }

  /** The tag of round {@code round}. */
  public String tag(int round) {
    return String.format(Locale.ROOT, "round-%0" + digits + "d", round);
  }

  /**
   * Writes round {@code round}'s checkpoint, on disk when this returns.
   *
   * @param training the training settings, its progress set to the round here
   * @param graph the model's graph ({@code graph.fb}), or null when the run has none (a server
   *     knows only the tensors)
   * @throws IOException when the file cannot be written (the earlier tags are then intact)
   */
  public void write(int round, Map<String, Tensor> parameters, TrainingConfig training,
      ByteBuffer graph) throws IOException {
    TagContents.Builder b = TagContents.builder();
    for (Map.Entry<String, Tensor> e : parameters.entrySet()) {
      b.parameter(e.getKey(), e.getValue());
    }
    b.trainingConfig(training.withProgress(0, 0, round));
    if (graph != null) {
      b.graph(graph);
    }
    TagContents contents = b.build();
    if (Files.exists(file)) {
      ModelWriter.addTag(file, tag(round), contents);
    } else {
      SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
      tags.put(tag(round), contents);
      ModelWriter.save(file, tags);
    }
  }
}
