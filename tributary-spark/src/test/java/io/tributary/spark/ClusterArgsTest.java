package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spark-cluster's arguments, and a stop with nothing to stop. */
class ClusterArgsTest {
  @Test
  void parse_readsTheOptionsWithDefaults() {
    assertThat(ClusterArgs.parse(List.of("start", "--dir", "d")))
        .isEqualTo(new ClusterArgs(true, 2, 1, "2g", Path.of("d")));
    assertThat(ClusterArgs.parse(List.of("start", "--workers", "3", "--cores", "2", "--memory",
        "1g", "--dir", "d"))).isEqualTo(new ClusterArgs(true, 3, 2, "1g", Path.of("d")));
    assertThatThrownBy(() -> ClusterArgs.parse(List.of("restart"))).hasMessageContaining(
        "start or stop");
    assertThatThrownBy(() -> ClusterArgs.parse(List.of("start", "--workers", "0", "--dir", "d")))
        .hasMessageContaining("--workers must be a whole number >= 1, got '0'");
    assertThatThrownBy(() -> ClusterArgs.parse(List.of("stop"))).hasMessageContaining("--dir");
  }

  @Test
  void stopWithoutACluster_saysSo(@TempDir Path dir) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = SparkClusterMain.run(List.of("stop", "--dir", dir.toString()),
        writer(out), writer(err));
    assertThat(code).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("no cluster recorded in ");
    assertThat(SparkClusterMain.run(List.of("bogus"), writer(out), writer(err))).isEqualTo(2);
  }

  @Test
  void toolProvider_spark_cluster_isFoundAndRunsTheCommand(@TempDir Path dir) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    java.util.spi.ToolProvider tool = java.util.spi.ToolProvider.findFirst("spark-cluster")
        .orElseThrow();

    int code = tool.run(writer(out), writer(err), "stop", "--dir", dir.toString());

    assertThat(tool).isInstanceOf(SparkClusterTool.class);
    assertThat(code).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("no cluster recorded in " + dir);
  }

  @Test
  void run_withoutDir_usesTheModulesTargetDirectory() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    // Surefire loads this module from target/classes, beside the build's classpath.txt.
    int code = SparkClusterMain.run(List.of("stop"), writer(out), writer(err));

    assertThat(code).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("no cluster recorded in ")
        .contains(Path.of("target", "spark-cluster").toString());
  }

  private static PrintWriter writer(ByteArrayOutputStream bytes) {
    return new PrintWriter(new OutputStreamWriter(bytes, StandardCharsets.UTF_8), true);
  }
}
