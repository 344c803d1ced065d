package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run folder that a command must not write: {@code server --resume} of a simulate run, {@code
 * server --out} of a folder holding one, and a server whose start fails. Each is refused in one
 * line and leaves the folder byte for byte as it was.
 */
@Timeout(300)
class RunFolderGuardTest {
  @TempDir static Path shared;
  private static Path simulated;

  @BeforeAll
  static void simulateARun() {
    simulated = shared.resolve("simulated");
    CliRun run = CliRun.of("simulate", "--clients", "4", "--clients-per-round", "2", "--rounds",
        "2", "--local-epochs", "1", "--threads", "1", "--out", simulated.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
  }

  private static Map<String, String> snapshot(Path run) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(run)) {
      for (Path f : files.toList()) {
        out.put(f.getFileName().toString(), Arrays.toString(Files.readAllBytes(f)));
      }
    }
    return out;
  }

  @Test
  void server_resumeOfASimulateRun_refusedInOneLineAndTheFolderUnchanged() throws Exception {
    Map<String, String> before = snapshot(simulated);

    CliRun r = CliRun.of("server", "--address", "localhost:0", "--min-clients", "1",
        "--rounds", "4", "--resume", simulated.toString());

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.errLines()).singleElement().asString()
        .contains("is a checkpoint of a tributary simulate run, not of a server run");
    assertThat(snapshot(simulated)).isEqualTo(before);
  }

  @Test
  void server_outHoldingASimulateRun_refusedInOneLineAndTheFolderUnchanged() throws Exception {
    Map<String, String> before = snapshot(simulated);

    CliRun r = CliRun.of("server", "--address", "localhost:0", "--min-clients", "1",
        "--rounds", "1", "--out", simulated.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString()
        .contains("holds a tributary simulate run already (config.json)");
    assertThat(snapshot(simulated)).isEqualTo(before);
  }

  @Test
  void server_portInUse_startFailsAndAnExistingFolderIsUnchanged(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("empty");
    Files.createDirectories(out);
    try (ServerSocket taken = new ServerSocket(0)) {
      CliRun r = CliRun.of("server", "--address", "localhost:" + taken.getLocalPort(),
          "--min-clients", "1", "--rounds", "1", "--out", out.toString());

      assertThat(r.exitCode()).isNotZero();
      assertThat(r.errLines()).hasSize(1);
    }
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files).isEmpty();
    }
  }
}
