package io.tributary.learning.rounds;

/**
 * What a round does when its clients fail beyond what the runtime tolerates, or its aggregate
 * or new model is not usable (every client reported zero examples, an overflow to infinity).
 */
public enum FailurePolicy {
  /** The run stops: the round's exception propagates (the simulator). */
  STOP_RUN,
  /**
   * The round keeps the model it had and the run goes on, as Flower's server does when a
   * strategy returns no parameters; the reason is in the round's report.
   */
  KEEP_MODEL
}
