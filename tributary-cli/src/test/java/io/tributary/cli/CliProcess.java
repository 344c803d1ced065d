package io.tributary.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code tributary COMMAND ARGS...} in a JVM of its own, as a user starts it. */
final class CliProcess {
  private CliProcess() {}

  /**
   * Starts {@code command} (such as supernode) with a heap of {@code maxHeap} (such as 512m),
   * output to {@code log}.
   */
  static Process start(Path log, String maxHeap, String command, List<String> args)
      throws IOException {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + maxHeap, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
        command));
    cmd.addAll(args);
    return new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }
}
