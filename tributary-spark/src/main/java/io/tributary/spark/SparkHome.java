package io.tributary.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A stand-in for a Spark distribution's directory: a standalone worker starts each executor with
 * {@code SPARK_HOME/jars/*} as its class path, so this directory's {@code jars} holds links to
 * the jars of the module's class path.
 */
final class SparkHome {
  private SparkHome() {}

  /**
   * Makes {@code home/jars} with a link to every jar of {@code classpath} (directories are left
   * out: the executors get them through {@code spark.executor.extraClassPath}).
   *
   * @return {@code home}
   */
  static Path create(Path home, List<Path> classpath) {
    Path jars = home.resolve("jars");
    try {
      Files.createDirectories(jars);
      for (Path entry : classpath) {
        String file = entry.getFileName().toString();
        Path link = jars.resolve(file);
        if (file.endsWith(".jar") && Files.isRegularFile(entry) && !Files.exists(link,
            java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          Files.createSymbolicLink(link, entry.toAbsolutePath());
        }
      }
      return home;
    } catch (IOException e) {
      throw new UncheckedIOException("could not prepare " + jars + ": " + e.getMessage(), e);
    }
  }
}
