package io.tributary.flower.server;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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
   * optimizer's state {@code updater} when the algorithm keeps one.
   */
  record Resumed(SequencedMap<String, Tensor> tensors, int afterRound,
      java.util.Optional<io.tributary.learning.rounds.UpdaterState> updater)
      implements InitialParameters {
    /** A resumed model without optimizer state. */
    public Resumed(SequencedMap<String, Tensor> tensors, int afterRound) {
      this(tensors, afterRound, java.util.Optional.empty());
    }

    public Resumed {
      java.util.Objects.requireNonNull(updater, "updater");
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

  static InitialParameters fromClient() {
    return new FromClient();
  }
}
