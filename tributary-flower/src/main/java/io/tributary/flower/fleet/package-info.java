/**
 * Today's Flower for Java: a {@link io.tributary.flower.fleet.SuperNode} that joins a Flower 1.27
 * SuperLink over the Fleet API ({@code flwr.proto.Fleet}, "grpc-rere") and answers the messages
 * of every run with a Java {@link io.tributary.flower.app.ClientApp}. The protocol itself
 * (content-addressed objects, the generated protobuf messages) lives in {@code internal}.
 */
package io.tributary.flower.fleet;
