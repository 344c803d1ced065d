/**
 * A Flower client that trains Tributary's graph models on local data:
 * {@link io.tributary.flower.training.TrainingClient}, with the same local-training procedures as
 * {@code tributary simulate}, and its {@link io.tributary.flower.training.TrainingSettings}.
 *
 * <p>This module joins the Flower protocol ({@code tributary-flower}) to graphs, kernels and
 * datasets, so that a program that only speaks the protocol does not depend on them.
 */
package io.tributary.flower.training;
