package io.tributary.spark;

import java.io.PrintWriter;
import java.util.List;
import java.util.spi.ToolProvider;

/**
 * {@link SparkClusterMain} as the {@code spark-cluster} {@link ToolProvider}, registered in this
 * module's {@code META-INF/services}: the {@code tributary spark-cluster} command finds it with
 * {@code ToolProvider.findFirst("spark-cluster")} when tributary-spark is on the class path, so
 * the CLI runs it without depending on this module (and Spark's jars stay out of the CLI jar).
 */
public final class SparkClusterTool implements ToolProvider {
  /** The tool's name. */
  public static final String NAME = "spark-cluster";

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Runs {@code spark-cluster start|stop ...} as {@link SparkClusterMain} does; returns 0 on
   * success, 1 when the cluster fails, 2 on bad arguments.
   */
  @Override
  public int run(PrintWriter out, PrintWriter err, String... args) {
    try {
      return SparkClusterMain.run(List.of(args), out, err);
    } finally {
      out.flush();
      err.flush();
    }
  }
}
