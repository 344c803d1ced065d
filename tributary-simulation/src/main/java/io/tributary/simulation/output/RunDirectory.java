package io.tributary.simulation.output;

import io.tributary.simulation.RunFiles;
import io.tributary.simulation.SimulationListener;
import java.nio.file.Path;
import java.util.List;

/** The listeners that write every file of {@code tributary simulate} into one directory. */
public final class RunDirectory {
  private RunDirectory() {}

  /**
   * In the order they are told: the directory's lock ({@link RunLockListener}: a second writer
   * is refused), {@code config.json} and {@code clients.json} (the directory is refused if it
   * already holds a run), {@code metrics.jsonl}, {@code model.zip},
   * {@code final.npz}, {@code report.html}.
   */
  public static List<SimulationListener> listeners(Path dir) {
    return List.of(new RunLockListener(dir), new ConfigFileListener(dir),
        new MetricsLogListener(dir.resolve(RunFiles.METRICS)),
        new CheckpointListener(dir.resolve(RunFiles.MODEL)),
        new FinalModelListener(dir.resolve(RunFiles.FINAL)),
        new ReportListener(dir.resolve(RunFiles.REPORT)));
  }
}
