package io.tributary.simulation.output;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.output.CheckpointListener;
import io.tributary.learning.rounds.output.FinalModelListener;
import io.tributary.learning.rounds.output.MetricsLogListener;
import io.tributary.learning.rounds.output.ReportListener;
import io.tributary.simulation.RunFiles;
import java.nio.file.Path;
import java.util.List;

/**
 * The listeners that write every file of {@code tributary simulate} into one directory: the
 * simulation's own ({@code config.json}, {@code clients.json}) and the round listeners every
 * binding writes with ({@code tributary-learning}'s {@link MetricsLogListener}, {@link
 * CheckpointListener} (the simulation's start gives the model's graph and the settings each
 * checkpoint records), {@link FinalModelListener}, {@link ReportListener}).
 */
public final class RunDirectory {
  private RunDirectory() {}

  /**
   * In the order they are told: the directory's lock ({@link RunLockListener}: a second writer
   * is refused), {@code config.json} and {@code clients.json} (the directory is refused if it
   * already holds a run), {@code model.zip}, {@code metrics.jsonl} (a checkpointed round's
   * line after its checkpoint is on disk), {@code final.npz}, {@code report.html}.
   */
  public static List<RoundListener> listeners(Path dir) {
    return List.of(new RunLockListener(dir), new ConfigFileListener(dir),
        new CheckpointListener(dir.resolve(RunFiles.MODEL)),
        new MetricsLogListener(dir.resolve(RunFiles.METRICS)),
        new FinalModelListener(dir.resolve(RunFiles.FINAL)),
        new ReportListener(dir.resolve(RunFiles.REPORT)));
  }
}
