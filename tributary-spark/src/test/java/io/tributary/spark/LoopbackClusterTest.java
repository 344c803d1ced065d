package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/** A real master and workers on loopback: start, run a job on them, kill a worker, stop. */
class LoopbackClusterTest {
  static List<Path> classpath() {
    return BuildClasspath.of(Path.of(System.getProperty("tributary.spark.classes")).getParent()
        .getParent());
  }

  @Test
  @Timeout(240)
  void startsRunsAJobAndStopsEveryProcess(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) {
    List<Long> pids;
    try (LoopbackCluster cluster = LoopbackCluster.builder(classpath(), dir).workers(2)
        .workerMemory("1g").start()) {
      pids = cluster.pids();
      assertThat(cluster.masterUrl()).startsWith("spark://127.0.0.1:");
      assertThat(pids).hasSize(3).allMatch(p -> ProcessHandle.of(p).isPresent());
      SparkConf conf = new SparkConf().setMaster(cluster.masterUrl()).setAppName("loopback-test")
          .set("spark.driver.host", "127.0.0.1").set("spark.executor.memory", "512m")
          .set("spark.ui.enabled", "false")
          .set("spark.executor.extraClassPath", String.join(java.io.File.pathSeparator,
              java.util.stream.Stream.concat(classpath().stream(), java.util.stream.Stream.of(
                  Path.of(System.getProperty("tributary.spark.classes")).resolveSibling(
                      "test-classes"))).map(Path::toString).toList()));
      try (JavaSparkContext sc = new JavaSparkContext(conf)) {
        long sum = sc.parallelize(List.of(1, 2, 3, 4), 2).map(x -> x * 2).reduce(Integer::sum);
        assertThat(sum).isEqualTo(20);
      }
      cluster.killWorker(1);
      assertThat(ProcessHandle.of(pids.get(2))).isEmpty();
    }
    assertThat(pids).allMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)
        == false);
  }

  @Test
  void aProcessThatCannotStartIsNamed(@TempDir Path dir) {
    // Without Spark's jars the master's JVM exits at once (no main class).
    assertThatThrownBy(() -> LoopbackCluster.builder(List.of(dir.resolve("nothing.jar")), dir)
        .workers(1).startTimeout(Duration.ofSeconds(30)).start())
        .isInstanceOf(LoopbackClusterException.class)
        .hasMessageContaining("the master exited with status")
        .hasMessageContaining("master.log");
  }
}
