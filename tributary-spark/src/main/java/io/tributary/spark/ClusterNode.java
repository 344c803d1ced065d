package io.tributary.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One process of a {@link LoopbackCluster}: the master or a worker, its log file and how to stop
 * it.
 *
 * @param name what messages call it ({@code master}, {@code worker 1})
 * @param process the running JVM
 * @param log the file its standard output and error go to
 */
record ClusterNode(String name, Process process, Path log) {
  /** How long a process gets to stop after SIGTERM before it is killed. */
  private static final long STOP_SECONDS = 10;

  /** Starts {@code command} with {@code environment} added, its output appended to {@code log}. */
  static ClusterNode start(String name, List<String> command,
      java.util.Map<String, String> environment, Path log) {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().putAll(environment);
    try {
      return new ClusterNode(name, pb.start(), log);
    } catch (IOException e) {
      throw new LoopbackClusterException("could not start the " + name + " (" + command.get(0)
          + "): " + e.getMessage(), e);
    }
  }

  /** The last non-blank line of the log, or a note that there is none. */
  String lastLogLine() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      for (int i = lines.size() - 1; i >= 0; i--) {
        if (!lines.get(i).isBlank()) {
          return lines.get(i).strip();
        }
      }
      return "(its log is empty)";
    } catch (IOException e) {
      return "(its log cannot be read: " + e.getMessage() + ")";
    }
  }

  /** Stops the process and its children (the executors a worker started), waiting for them. */
  void stop() {
    List<ProcessHandle> children = process.descendants().toList();
    process.destroy();
    children.forEach(ProcessHandle::destroy);
    try {
      if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(STOP_SECONDS, TimeUnit.SECONDS);
      }
      for (ProcessHandle c : children) {
        c.onExit().get(STOP_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      children.forEach(ProcessHandle::destroyForcibly);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      children.forEach(ProcessHandle::destroyForcibly);
    }
  }
}
