/**
 * Flower's gRPC protocol ({@code flwr.proto.FlowerService/Join}) for Tributary: a client SDK that
 * joins any Flower-protocol server and a server whose rounds are federated computations.
 */
package io.tributary.flower;
