package io.tributary.flower.server;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.output.RunResume;
import io.tributary.learning.rounds.output.RunFileException;
import io.tributary.learning.rounds.output.RunIdentity;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * Where the first model comes from: given tensors, one connected client (as in Flower), or the
 * checkpoint of an earlier run that this one continues.
 */
public sealed interface InitialParameters {
  /** These named tensors, in order. */
  record Given(SequencedMap<String, Tensor> tensors) implements InitialParameters {
    public Given {
      if (tensors.isEmpty()) {
        throw new IllegalArgumentException("the initial parameters hold no tensors");
      }
      tensors = java.util.Collections.unmodifiableSequencedMap(new LinkedHashMap<>(tensors));
    }
  }

  /**
   * These named tensors: in the map's order when it is a {@link SequencedMap} (a {@code
   * LinkedHashMap}, say), sorted by name for any other map (such as {@code Map.of(...)}), whose
   * order is unspecified.
   *
   * @throws IllegalArgumentException if there are no tensors
   */
  static InitialParameters given(Map<String, Tensor> tensors) {
    return new Given(
        tensors instanceof SequencedMap<String, Tensor> s ? s : new TreeMap<>(tensors));
  }

  /** Ask one randomly chosen client ({@code GetParametersIns}). */
  record FromClient() implements InitialParameters {}

  /**
   * The model a stopped run had after round {@code afterRound}: this run goes on with round
   * {@code afterRound + 1}, numbering its rounds as the stopped run would have, with the server
   * optimizer's and the aggregator's state {@code updater} when the algorithm keeps either (a
   * private aggregator's round and clipping norm, say); {@code previous} holds the stopped run's
   * rounds up to {@code afterRound} where known (its listeners are told them at the start).
   */
  record Resumed(SequencedMap<String, Tensor> tensors, int afterRound,
      java.util.Optional<io.tributary.learning.rounds.UpdaterState> updater,
      List<RoundRecord> previous) implements InitialParameters {
    /** A resumed model without optimizer state, whose earlier rounds are not known. */
    public Resumed(SequencedMap<String, Tensor> tensors, int afterRound) {
      this(tensors, afterRound, java.util.Optional.empty(), List.of());
    }

    /** A resumed model whose earlier rounds are not known. */
    public Resumed(SequencedMap<String, Tensor> tensors, int afterRound,
        java.util.Optional<io.tributary.learning.rounds.UpdaterState> updater) {
      this(tensors, afterRound, updater, List.of());
    }

    public Resumed {
      java.util.Objects.requireNonNull(updater, "updater");
      previous = List.copyOf(previous);
      if (tensors.isEmpty()) {
        throw new IllegalArgumentException("the checkpoint holds no tensors");
      }
      if (afterRound < 1) {
        throw new IllegalArgumentException("a resumed run goes on after round 1 or later, not "
            + afterRound);
      }
      tensors = java.util.Collections.unmodifiableSequencedMap(new LinkedHashMap<>(tensors));
    }
  }

  /** The rounds already run before this run's first: the round a resumed run goes on after. */
  default int roundsDone() {
    return this instanceof Resumed r ? r.afterRound() : 0;
  }

  /** The rounds a resumed run had finished, where known; empty for a new run. */
  default List<RoundRecord> previous() {
    return this instanceof Resumed r ? r.previous() : List.of();
  }

  /**
   * The arrays of an {@code .npz} file, in file order.
   *
   * @throws IOException if the file cannot be read or is not a valid npz
   */
  static InitialParameters fromNpz(Path file) throws IOException {
    LinkedHashMap<String, Tensor> arrays = Npz.read(file);
    if (arrays.isEmpty()) {
      throw new IOException(file + " holds no arrays");
    }
    return new Given(arrays);
  }

  /**
   * The model a stopped or killed run had after its last checkpoint, from the newest tag of
   * {@code dir/model.zip} (the checkpoints {@link ServerRunFiles} writes), with the server
   * optimizer's and the aggregator's state when the tag holds them, and the rounds of {@code
   * dir/metrics.jsonl} up to it; read with learning's {@link RunResume}, the simulator's reader.
   *
   * @throws IOException when the directory holds no checkpoint, or it cannot be read or is not a
   *     round of a server run (another kind of run's, such as {@code tributary simulate}'s, or
   *     one without a run identity: {@link RunFileException})
   */
  static Resumed resume(Path dir) throws IOException {
    RunResume r = RunResume.read(dir, RoundRecord.EvaluationKind.FEDERATED, (tag, training) -> {
      long round = training.round();
      if (round < 1 || round >= Integer.MAX_VALUE) {
        throw new RunFileException("model.zip tag " + tag + " records round " + round
            + ", not a round of a server run");
      }
      String kind = RunIdentity.of(tag, training).kind();
      if (!kind.equals(ServerConfig.RUN_KIND)) {
        throw new RunFileException("model.zip tag " + tag + " is a checkpoint of a tributary "
            + (kind.length() > 40 ? kind.substring(0, 40) + "..." : kind) + " run, not of a "
            + "server run: resume it with the command that wrote it");
      }
    });
    return new Resumed(r.checkpoint().parameters(), r.round(), r.checkpoint().updater(),
        r.previous());
  }

  /** Ask one randomly chosen client for the initial model ({@code GetParametersIns}). */
  static InitialParameters fromClient() {
    return new FromClient();
  }
}
