package io.tributary.learning.rounds;

/**
 * Told how the round under way goes, while it goes: its start, each stage (fit, evaluation,
 * the stages of secure aggregation) with the clients it runs over, each client that answers or
 * fails as it happens, the bytes sent so far, and each stage's final count when it ends.
 *
 * <p>Every method has an empty default. Unlike the other {@link RoundListener} events, these may
 * be told from any thread, several at once (a server's clients answer on their own threads): an
 * implementation must be thread-safe, return quickly and not throw. A page counts them; a
 * listener that writes files ignores them.
 *
 * <p>The live events ({@link #clientReported}, {@link #clientFailed}, {@link #traffic}) come
 * from whoever sees the clients answer: a server's client work tells each one; in a simulation,
 * the runtime's passes tell each client as its work ends or fails (through an {@link
 * io.tributary.runtime.ClientObserver}), except on a pass engine such as Spark, where only
 * {@link #stageEnded} gives the counts. {@link #stageEnded} is authoritative everywhere: it counts
 * every client of the stage once, with the reasons of those that failed, including failures only
 * the runtime saw on a server (a timeout, an update that is not finite) or an aggregate refused
 * after its clients reported.
 */
public interface RoundProgress {
  /** Tells nothing. */
  RoundProgress NONE = new RoundProgress() { };

  /** Round {@code round} starts. */
  default void roundStarted(int round) {}

  /**
   * A stage of round {@code round} starts over {@code clients} clients.
   *
   * @param stage the stage's name, such as {@code fit}, {@code evaluate test} or {@code SecAgg+
   *     share-keys}
   */
  default void stage(int round, String stage, int clients) {}

  /** Client {@code client} of the current stage answered and its answer was taken. */
  default void clientReported(int round, String client) {}

  /**
   * Client {@code client} of the current stage failed or dropped out, for {@code reason}.
   */
  default void clientFailed(int round, String client, String reason) {}

  /** The bytes received from and sent to clients since the round started. */
  default void traffic(int round, long bytesUp, long bytesDown) {}

  /**
   * The stage {@code stage} of round {@code round} has ended: {@code reported} clients' results
   * were taken; {@code failures} says why each of the others failed, one line each (these are
   * the reasons the round's record gives).
   */
  default void stageEnded(int round, String stage, int reported,
      java.util.List<String> failures) {}
}
