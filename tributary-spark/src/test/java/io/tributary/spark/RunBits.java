package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.simulation.RunFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Compares two run directories: {@code final.npz} byte for byte, and {@code metrics.jsonl} byte
 * for byte once each line's {@code "seconds"} (the round's wall-clock time, the only field that
 * is not a function of the settings) is blanked.
 */
final class RunBits {
  private RunBits() {}

  /** {@code metrics.jsonl} with every {@code "seconds": X} written as {@code "seconds": _}. */
  static List<String> metricsWithoutClock(Path run) throws IOException {
    return Files.readAllLines(run.resolve(RunFiles.METRICS), StandardCharsets.UTF_8).stream()
        .map(l -> l.replaceAll("\"seconds\": [^,}]+", "\"seconds\": _")).toList();
  }

  static void assertSameBits(Path expected, Path actual, int rounds) throws IOException {
    List<String> want = metricsWithoutClock(expected);
    assertThat(want).as("rounds in %s", expected).hasSize(rounds);
    assertThat(metricsWithoutClock(actual)).as("metrics.jsonl of %s", actual)
        .containsExactlyElementsOf(want);
    assertThat(Files.readAllBytes(actual.resolve(RunFiles.FINAL))).as("final.npz of %s", actual)
        .isEqualTo(Files.readAllBytes(expected.resolve(RunFiles.FINAL)));
  }
}
