/**
 * The files of a run's directory that every binding of the round loop writes and reads back: a
 * {@link io.tributary.learning.rounds.output.MetricsLog} ({@code metrics.jsonl}, one line per
 * round), {@link io.tributary.learning.rounds.output.RoundCheckpoints} ({@code model.zip}, one
 * ADR-0001 tag per checkpointed round), and the {@link
 * io.tributary.learning.rounds.output.RunFileException} of a file that is not what a run wrote.
 * The simulator and the Flower server write and resume their runs through these same classes.
 */
package io.tributary.learning.rounds.output;
