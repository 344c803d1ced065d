package io.tributary.simulation.output;

import io.tributary.simulation.SimulationEnd;
import io.tributary.simulation.SimulationListener;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.nio.file.Path;

/** Writes the final global model as an uncompressed {@code .npz} when every round completed. */
public final class FinalModelListener implements SimulationListener {
  private final Path file;

  /** Writes {@code file} (a run's {@code final.npz}). */
  public FinalModelListener(Path file) {
    this.file = file;
  }

  @Override
  public void finished(SimulationEnd end) throws IOException {
    if (end.finalParameters().isPresent()) {
      Npz.write(file, end.finalParameters().get(), false);
    }
  }
}
