/**
 * How a simulation runs its rounds through the runtime: not an API, and free to change; use
 * {@link io.tributary.simulation.Simulation}.
 */
package io.tributary.simulation.internal;
