package io.tributary.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The class path the build wrote for this module: {@code target/classpath.txt} (Spark and every
 * dependency), the module's own classes, and {@code target/cluster-lib} (log4j's SLF4J binding,
 * for the cluster's processes only).
 */
public final class BuildClasspath {
  private BuildClasspath() {}

  /**
   * The entries of {@code moduleDir/target/classpath.txt}, then {@code moduleDir/target/classes}
   * and the jars of {@code moduleDir/target/cluster-lib}.
   *
   * @throws UncheckedIOException when the build has not written the file ({@code ./mvnw
   *     package -pl tributary-spark -am} does)
   */
  public static List<Path> of(Path moduleDir) {
    Path target = moduleDir.resolve("target");
    Path file = target.resolve("classpath.txt");
    List<Path> out = new ArrayList<>();
    try {
      for (String e : Files.readString(file).strip().split(java.io.File.pathSeparator)) {
        if (!e.isBlank()) {
          out.add(Path.of(e));
        }
      }
      out.add(target.resolve("classes"));
      Path lib = target.resolve("cluster-lib");
      if (Files.isDirectory(lib)) {
        try (Stream<Path> jars = Files.list(lib)) {
          jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(out::add);
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(file + " cannot be read (build tributary-spark first: "
          + "./mvnw package -pl tributary-spark -am -DskipTests): " + e.getMessage(), e);
    }
  }
}
