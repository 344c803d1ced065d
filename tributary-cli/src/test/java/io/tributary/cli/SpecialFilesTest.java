package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs refused before they are read: a FIFO (which would block a read forever) and a 2 GiB
 * sparse {@code .pb} whose first bytes are no protobuf message.
 */
@Timeout(60)
class SpecialFilesTest {
  @TempDir Path dir;

  @Test
  void inspect_fifo_refusedInOneLineWithoutBlocking() throws Exception {
    Path fifo = dir.resolve("model.npz");
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo is available");

    CliRun run = CliRun.of("inspect", fifo.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString()
        .contains("is not a regular file (a FIFO, socket or device)");
  }

  @Test
  void inspect_sparseTwoGibPb_refusedFromItsFirstBytes() throws Exception {
    Path pb = dir.resolve("big.pb");
    try (RandomAccessFile f = new RandomAccessFile(pb.toFile(), "rw")) {
      f.setLength((1L << 31) - 100);
    }
    long t0 = System.nanoTime();

    CliRun run = CliRun.of("inspect", pb.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString()
        .contains("is not a protobuf message: its first bytes are no field tag");
    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(10);
    assertThat(Files.size(pb)).isEqualTo((1L << 31) - 100);
  }
}
