/**
 * The outputs only a simulation writes, each a {@link io.tributary.simulation.SimulationListener}
 * usable on its own: {@code config.json} and {@code clients.json}, and the directory's lock;
 * {@link io.tributary.simulation.output.RunDirectory} makes them for one directory with the round
 * listeners of {@code io.tributary.learning.rounds.output} every binding uses ({@code
 * metrics.jsonl}, checkpoints in {@code model.zip}, progress, {@code final.npz}, the report).
 */
package io.tributary.simulation.output;
