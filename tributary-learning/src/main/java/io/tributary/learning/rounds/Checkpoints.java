package io.tributary.learning.rounds;

import io.tributary.format.TrainingConfig;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.Optional;

/**
 * How a run's checkpoints are made, as its {@link RunStart} says: every how many rounds (the last
 * round and a run stopped on request always get one), what each records besides the model and the
 * server state (the training settings and the run's identity, which a resume checks), and the
 * model's graph where the binding has one (the simulator's; a server knows only tensors).
 *
 * @param every a checkpoint every this many rounds, at least 1
 * @param record the training configuration each checkpoint records; its round is set per
 *     checkpoint
 * @param graph the model's graph as ADR-0001 FlatBuffers bytes, stored in every tag; empty for
 *     none
 */
public record Checkpoints(int every, TrainingConfig record, Optional<ByteBuffer> graph) {
  /**
   * Checks the cadence and keeps a read-only view of the graph.
   *
   * @throws IllegalArgumentException when {@code every} is less than 1
   */
  public Checkpoints {
    if (every < 1) {
      throw new IllegalArgumentException("checkpoints are made every 1 or more rounds, not "
          + every);
    }
    Objects.requireNonNull(record, "record");
    graph = graph.map(ByteBuffer::asReadOnlyBuffer);
  }

  /** A checkpoint every round, recording no settings and no graph. */
  public static Checkpoints everyRound() {
    return new Checkpoints(1, TrainingConfig.of("", new LinkedHashMap<>()), Optional.empty());
  }

  /** Whether round {@code round} of a run whose last round is {@code lastRound} gets one. */
  public boolean due(int round, int lastRound) {
    return round % every == 0 || round == lastRound;
  }
}
