package io.tributary.learning.rounds;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A request to stop a run between rounds, which any thread may make: the round in progress
 * finishes, its listeners are told it (checkpoints included), and the run ends with that round's
 * model. The first reason given is kept.
 */
public final class RunStop {
  private final AtomicReference<String> reason = new AtomicReference<>();

  /** Asks the run to stop after the round in progress, for {@code why}. */
  public void request(String why) {
    reason.compareAndSet(null, Objects.requireNonNull(why, "why"));
  }

  /** The reason the run was asked to stop, or empty. */
  public Optional<String> requested() {
    return Optional.ofNullable(reason.get());
  }
}
