/**
 * A Flower-protocol server: Python Flower clients and Tributary clients join its
 * {@code FlowerService.Join} stream, and each round is FedAvg or FedProx run by the runtime as
 * federated computations whose CLIENTS are the connected clients ({@link
 * io.tributary.flower.server.FlowerServer}).
 */
package io.tributary.flower.server;
