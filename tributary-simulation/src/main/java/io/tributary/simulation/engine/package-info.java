/**
 * What a cluster engine ({@link io.tributary.simulation.Engine.Cluster}) needs from a
 * simulation: which invocation a pass belongs to ({@link io.tributary.simulation.engine.Invocation}),
 * the engine's lifetime ({@link io.tributary.simulation.engine.ClusterEngine}) and its start-up
 * failure ({@link io.tributary.simulation.engine.EngineUnavailableException}), and the
 * simulation a worker rebuilds from the settings it receives ({@link
 * io.tributary.simulation.engine.WorkerReplica}). Implemented by
 * tributary-spark; found through {@link io.tributary.simulation.EngineProvider}.
 */
package io.tributary.simulation.engine;
