package io.tributary.simulation;

import io.tributary.learning.rounds.output.MetricsLog;
import io.tributary.learning.rounds.output.RoundCheckpoints;
import java.util.List;

/** The names of the files a simulation writes in its output directory. */
public final class RunFiles {
  /** One JSON object per round, appended as each round ends. */
  public static final String METRICS = MetricsLog.FILE;
  /** Every setting, the seed and the repeating command included. */
  public static final String CONFIG = "config.json";
  /** The final global model's parameters. */
  public static final String FINAL = "final.npz";
  /** The self-contained HTML report. */
  public static final String REPORT = "report.html";
  /** Each client's number of training examples and the test set's size. */
  public static final String CLIENTS = "clients.json";
  /** The checkpoints, one model-file tag each. */
  public static final String MODEL = RoundCheckpoints.FILE;

  /** Every file of a run; a directory holding any of them holds a run. */
  public static final List<String> ALL = List.of(METRICS, CONFIG, CLIENTS, FINAL, MODEL, REPORT);

  private RunFiles() {}
}
