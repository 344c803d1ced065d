package io.tributary.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What the driver received per Spark job, read from an application's uncompressed event log
 * ({@code spark.eventLog.enabled}, {@code spark.eventLog.compress=false}): each job's result
 * stage (its last), whose tasks' results are what the driver collects (one per part of a pass).
 */
final class DriverTraffic {
  private DriverTraffic() {}

  /**
   * One job's result stage.
   *
   * @param job the job's id, in run order
   * @param tasks the result stage's tasks (successful attempts only)
   * @param resultBytes each such task's serialized result size, in task order
   */
  record Job(int job, int tasks, List<Long> resultBytes) {
    long bytes() {
      return resultBytes.stream().mapToLong(Long::longValue).sum();
    }
  }

  /** The envelope the engine's settings to the Spark conf ask for, under {@code dir}. */
  static Map<String, String> eventLogSettings(Path dir) throws IOException {
    Files.createDirectories(dir);
    return Map.of("spark.eventLog.enabled", "true", "spark.eventLog.dir", dir.toUri().toString(),
        "spark.eventLog.compress", "false", "spark.eventLog.rolling.enabled", "false");
  }

  /** The jobs of the one application whose event log {@code dir} holds, in job order. */
  static List<Job> read(Path dir) throws IOException {
    List<Path> logs;
    try (Stream<Path> files = Files.list(dir)) {
      logs = files.filter(Files::isRegularFile).toList();
    }
    if (logs.size() != 1) {
      throw new IllegalStateException("expected one event log in " + dir + ", found " + logs);
    }
    ObjectMapper json = new ObjectMapper();
    Map<Integer, Integer> resultStageOfJob = new TreeMap<>();
    Map<Integer, List<Long>> resultsOfStage = new TreeMap<>();
    for (String line : Files.readAllLines(logs.get(0), StandardCharsets.UTF_8)) {
      JsonNode event = json.readTree(line);
      switch (event.path("Event").asText()) {
        case "SparkListenerJobStart" -> {
          int last = -1;
          for (JsonNode s : event.path("Stage IDs")) {
            last = Math.max(last, s.asInt());
          }
          resultStageOfJob.put(event.path("Job ID").asInt(), last);
        }
        case "SparkListenerTaskEnd" -> {
          if ("Success".equals(event.path("Task End Reason").path("Reason").asText())) {
            resultsOfStage.computeIfAbsent(event.path("Stage ID").asInt(), s -> new ArrayList<>())
                .add(event.path("Task Metrics").path("Result Size").asLong());
          }
        }
        default -> { }
      }
    }
    List<Job> jobs = new ArrayList<>();
    resultStageOfJob.forEach((job, stage) -> {
      List<Long> results = resultsOfStage.getOrDefault(stage, List.of());
      jobs.add(new Job(job, results.size(), List.copyOf(results)));
    });
    return jobs;
  }
}
