package io.tributary.cli;

import io.tributary.format.ModelWriter;
import io.tributary.format.TagContents;
import io.tributary.format.TrainingConfig;
import io.tributary.graph.GraphFb;
import io.tributary.graph.models.Model;
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
 * {@code model.zip}: the global model as an ADR-0001 model file with one tag per checkpoint
 * ({@code round-0010}, {@code round-0020}, ...), each holding the parameters, the model's graph
 * and the run's training settings. The first checkpoint creates the file; later ones are appended
 * as new tags without rewriting the earlier ones.
 */
final class Checkpoints {
  private final Path file;
  private final ByteBuffer graph;
  private final SimulationConfig config;
  private final int digits;

  Checkpoints(Path file, Model model, SimulationConfig config) {
    this.file = file;
    this.graph = ByteBuffer.wrap(GraphFb.toBytes(model.graph())).asReadOnlyBuffer();
    this.config = config;
    this.digits = Math.max(4, Integer.toString(config.rounds()).length());
  }

  /** Whether round {@code round} gets a checkpoint: every {@code --checkpoint-every}, and the last. */
  boolean due(int round) {
    return round % config.checkpointEvery() == 0 || round == config.rounds();
  }

  /** The tag of round {@code round}, zero-padded so that tags sort by round. */
  String tag(int round) {
    return String.format(Locale.ROOT, "round-%0" + digits + "d", round);
  }

  /** Writes the checkpoint of {@code round}. */
  void save(int round, Map<String, Tensor> parameters) throws IOException {
    TagContents.Builder b = TagContents.builder();
    for (Map.Entry<String, Tensor> e : parameters.entrySet()) {
      b.parameter(e.getKey(), e.getValue());
    }
    SequencedMap<String, Double> hyper = new LinkedHashMap<>();
    hyper.put("learning_rate", config.learningRate());
    hyper.put("mu", config.mu());
    hyper.put("local_epochs", (double) config.localEpochs());
    hyper.put("batch_size", (double) config.batchSize());
    SequencedMap<String, String> props = new LinkedHashMap<>();
    props.put("algorithm", config.algorithm().cliName());
    props.put("dataset", config.dataset().toString());
    props.put("command", config.shellCommand());
    b.trainingConfig(TrainingConfig.of("sgd", hyper).withProgress(0, 0, round)
        .withProperties(props));
    b.graph(graph);
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
