/**
 * Federated simulations as a library: {@link io.tributary.simulation.SimulationSettings} (every
 * setting of {@code tributary simulate}, with its defaults), {@link
 * io.tributary.simulation.Simulation} (runs the rounds and tells its listeners), a typed {@link
 * io.tributary.simulation.History} of {@link io.tributary.learning.rounds.RoundRecord}s (the
 * record the Flower server's rounds share), the public seed derivation ({@link
 * io.tributary.simulation.Seeds}) and resuming from a checkpoint.
 */
package io.tributary.simulation;
