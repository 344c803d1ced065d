package io.tributary.simulation.output;

import io.tributary.learning.rounds.output.RunLock;
import io.tributary.simulation.SimulationListener;
import io.tributary.simulation.SimulationStart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Holds the run directory's {@link RunLock} from the start of a run to its close, so that a
 * second process writing the same directory (two resumes at once) is refused in one line before
 * it writes anything. First of {@link RunDirectory#listeners}; the lock file it created is
 * removed when the run closes.
 */
public final class RunLockListener implements SimulationListener {
  private final Path dir;
  private RunLock lock;

  /** Locks {@code dir}. */
  public RunLockListener(Path dir) {
    this.dir = dir;
  }

  @Override
  public void started(SimulationStart start) throws IOException {
    Files.createDirectories(dir);
    lock = RunLock.acquire(dir);
  }

  @Override
  public void close() throws IOException {
    if (lock != null) {
      RunLock l = lock;
      lock = null;
      l.discard();
    }
  }
}
