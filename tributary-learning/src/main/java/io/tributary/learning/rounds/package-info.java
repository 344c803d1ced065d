/**
 * The round loop shared by the simulator and the Flower server: {@link
 * io.tributary.learning.rounds.RoundLoop} over a {@link io.tributary.learning.rounds.Population}
 * with a {@link io.tributary.learning.rounds.FailurePolicy}, reporting each round as a {@link
 * io.tributary.learning.rounds.RoundReport}; and what both make of a round, a {@link
 * io.tributary.learning.rounds.RoundRecord}, written as a line of {@code metrics.jsonl} by {@link
 * io.tributary.learning.rounds.RoundJson}.
 */
package io.tributary.learning.rounds;
