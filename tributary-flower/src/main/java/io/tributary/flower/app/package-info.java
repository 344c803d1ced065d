/**
 * Flower's Message-API ClientApp for Java: a {@link io.tributary.flower.app.ClientApp} maps
 * message types ({@code train}, {@code evaluate}, {@code query}, {@code train.foo}...) to
 * {@link io.tributary.flower.app.MessageHandler}s, which take a
 * {@link io.tributary.flower.records.Message} and a {@link io.tributary.flower.app.Context} and
 * return the reply. {@link io.tributary.flower.app.TrainingClientApp} is a ready app that trains a
 * {@link io.tributary.flower.FlowerClient} (such as the graph-backed {@code TrainingClient} of
 * tributary-flower-training) under the record and key names of Flower's
 * Message-API strategies ({@code flwr.serverapp.strategy.FedAvg} and friends).
 * A {@link io.tributary.flower.fleet.SuperNode} runs apps for a Flower SuperLink.
 */
package io.tributary.flower.app;
