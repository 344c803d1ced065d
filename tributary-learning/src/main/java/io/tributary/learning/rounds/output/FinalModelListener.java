package io.tributary.learning.rounds.output;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SequencedMap;

/**
 * Writes the final global model as an uncompressed {@code .npz} ({@code final.npz}) when the run
 * ends with one: completed, or stopped between rounds on request; not when a failure stopped it.
 */
public final class FinalModelListener implements RoundListener {
  private final Path file;

  /** Writes {@code file} (a run's {@code final.npz}). */
  public FinalModelListener(Path file) {
    this.file = file;
  }

  @Override
  public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters) {}

  @Override
  public void finished(RunEnd end) throws IOException {
    if (end.finalParameters().isPresent()) {
      Npz.write(file, end.finalParameters().get(), false);
    }
  }
}
