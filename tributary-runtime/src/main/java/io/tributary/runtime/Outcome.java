package io.tributary.runtime;

import java.util.Objects;

/**
 * The value of an invocation together with its {@link ExecutionReport}.
 *
 * @param value the result, in the runtime's value representation (see {@link ExecutionContext})
 * @param report client counts, failures, passes and time
 */
public record Outcome(Object value, ExecutionReport report) {
  public Outcome {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(report, "report");
  }
}
