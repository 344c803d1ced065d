/**
 * Optimizers (SGD, momentum, Adam, Adagrad, Yogi) with explicit state.
 *
 * <p>An {@link io.tributary.graph.optim.Optimizer} keeps nothing between steps: its slots (Adam's
 * {@code m} and {@code v}, say) and the step count live in an {@link
 * io.tributary.graph.optim.OptimizerState} that the caller holds, so the model file can store it as
 * updater state and a server can apply the same rules to aggregated updates.
 */
package io.tributary.graph.optim;
