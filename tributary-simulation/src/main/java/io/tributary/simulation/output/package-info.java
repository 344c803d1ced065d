/**
 * The outputs of a simulation, each a {@link io.tributary.simulation.SimulationListener} usable
 * on its own: the progress display, {@code config.json} and {@code clients.json}, {@code
 * metrics.jsonl}, checkpoints in {@code model.zip}, {@code final.npz} and the HTML report;
 * {@link io.tributary.simulation.output.RunDirectory} makes all of them for one directory.
 */
package io.tributary.simulation.output;
