/**
 * Federated simulations as a library: {@link io.tributary.simulation.SimulationSettings} (every
 * setting of {@code tributary simulate}, with its defaults), {@link
 * io.tributary.simulation.Simulation} (runs the rounds and tells its listeners), a typed {@link
 * io.tributary.simulation.History} of {@link io.tributary.learning.rounds.RoundRecord}s (the
 * record the Flower server's rounds share), the public seed derivation ({@link
 * io.tributary.simulation.Seeds}) and resuming from a checkpoint. The user's data ({@code
 * Builder.data}, {@link io.tributary.simulation.DatasetSpec.Csv}, {@code npz-dir:}) and model
 * ({@link io.tributary.simulation.UserModel}) are settings like the built-in ones.
 *
 * <pre>{@code
 * SimulationSettings settings = SimulationSettings.builder()
 *     .dataset(new DatasetSpec.Csv(Path.of("data.csv")).withColumns("user", "label", List.of()))
 *     .model(Path.of("model.zip"))                 // a graph and its starting parameters
 *     .dp(DpSettings.builder(DpMode.CENTRAL).clip(1).build()).dpTargetEpsilon(3)
 *     .rounds(50).out(Path.of("runs/mine")).build();
 * SimulationResult result = Simulation.builder(settings).writeFiles().build().run();
 * }</pre>
 */
package io.tributary.simulation;
