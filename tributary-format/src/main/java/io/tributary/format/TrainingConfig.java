package io.tributary.format;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * How a tag's parameters were being trained: the optimizer and its hyperparameters, the loss
 * variables, what the updater state arrays are, and how far training got.
 *
 * @param optimizer the optimizer (updater), such as {@code "adam"}; empty when not training
 * @param hyperparameters numeric settings such as {@code learning_rate}, in order
 * @param lossVariables the graph variables whose sum is minimised
 * @param updaterStateNames what each updater state array of a parameter holds, such as
 *     {@code ["m", "v"]} for Adam; the columns of {@code updater.txt}
 * @param iterationCount optimizer steps taken
 * @param epochCount passes over the data completed
 * @param round federated rounds completed
 * @param properties free-form string settings, in order
 */
public record TrainingConfig(
    String optimizer,
    SequencedMap<String, Double> hyperparameters,
    List<String> lossVariables,
    List<String> updaterStateNames,
    long iterationCount,
    long epochCount,
    long round,
    SequencedMap<String, String> properties) {

  /** Copies every collection, so a config never changes after it is made. */
  public TrainingConfig {
    Objects.requireNonNull(optimizer, "optimizer");
    hyperparameters = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(hyperparameters));
    lossVariables = List.copyOf(lossVariables);
    updaterStateNames = List.copyOf(updaterStateNames);
    properties = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(properties));
    for (Map.Entry<String, Double> e : hyperparameters.entrySet()) {
      Objects.requireNonNull(e.getKey(), "hyperparameter name");
      Objects.requireNonNull(e.getValue(), "hyperparameter value");
    }
  }

  /** The configuration of a tag that is not being trained: no optimizer, all counts zero. */
  public static TrainingConfig none() {
    return new TrainingConfig("", new LinkedHashMap<>(), List.of(), List.of(), 0, 0, 0, new LinkedHashMap<>());
  }

  /**
   * A configuration for {@code optimizer} with the given hyperparameters and nothing else yet.
   * The hyperparameters keep the map's order when it is a {@link SequencedMap}, and are sorted by
   * name for any other map (such as {@code Map.of(...)}).
   */
  public static TrainingConfig of(String optimizer, Map<String, Double> hyperparameters) {
    return new TrainingConfig(optimizer, Ordered.of(hyperparameters), List.of(), List.of(), 0, 0, 0, new LinkedHashMap<>());
  }

  /** This configuration with other loss variables. */
  public TrainingConfig withLossVariables(List<String> names) {
    return new TrainingConfig(optimizer, hyperparameters, names, updaterStateNames, iterationCount, epochCount,
        round, properties);
  }

  /** This configuration with other updater state names. */
  public TrainingConfig withUpdaterStateNames(List<String> names) {
    return new TrainingConfig(optimizer, hyperparameters, lossVariables, names, iterationCount, epochCount,
        round, properties);
  }

  /** This configuration with other progress counters. */
  public TrainingConfig withProgress(long iterations, long epochs, long rounds) {
    return new TrainingConfig(optimizer, hyperparameters, lossVariables, updaterStateNames, iterations, epochs,
        rounds, properties);
  }

  /**
   * This configuration with other properties, in the map's order when it is a {@link
   * SequencedMap}, sorted by name for any other map.
   */
  public TrainingConfig withProperties(Map<String, String> props) {
    return new TrainingConfig(optimizer, hyperparameters, lossVariables, updaterStateNames, iterationCount,
        epochCount, round, Ordered.of(props));
  }
}
