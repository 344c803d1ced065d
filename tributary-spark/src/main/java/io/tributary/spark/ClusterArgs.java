package io.tributary.spark;

import java.nio.file.Path;
import java.util.List;

/**
 * The arguments of {@link SparkClusterMain}.
 *
 * @param start true for {@code start}, false for {@code stop}
 * @param workers the workers to start
 * @param cores the cores each worker offers
 * @param memory the memory each worker offers, in Spark's notation
 * @param dir the cluster's directory: logs, work files and {@code cluster.properties}
 */
record ClusterArgs(boolean start, int workers, int cores, String memory, Path dir) {
  /**
   * Reads {@code start|stop} and the options.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  static ClusterArgs parse(List<String> args) {
    if (args.isEmpty() || !List.of("start", "stop").contains(args.get(0))) {
      throw new IllegalArgumentException("the first argument must be start or stop");
    }
    int workers = 2;
    int cores = 1;
    String memory = "2g";
    Path dir = null;
    for (int i = 1; i < args.size(); i += 2) {
      if (i + 1 >= args.size()) {
        throw new IllegalArgumentException(args.get(i) + " needs a value");
      }
      String v = args.get(i + 1);
      switch (args.get(i)) {
        case "--workers" -> workers = positive("--workers", v);
        case "--cores" -> cores = positive("--cores", v);
        case "--memory" -> memory = v;
        case "--dir" -> dir = Path.of(v);
        default -> throw new IllegalArgumentException("unknown option " + args.get(i));
      }
    }
    if (dir == null) {
      throw new IllegalArgumentException("--dir is required");
    }
    return new ClusterArgs(args.get(0).equals("start"), workers, cores, memory, dir);
  }

  private static int positive(String flag, String v) {
    try {
      int n = Integer.parseInt(v);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new IllegalArgumentException(flag + " must be a whole number >= 1, got '" + v + "'");
  }
}
