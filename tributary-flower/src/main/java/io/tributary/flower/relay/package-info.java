/**
 * Relays: edge servers between clients (Join clients and Fleet SuperNodes) and a Tributary
 * server, the deployed form of the {@code EDGES} placement and of hierarchical FedAvg's edges
 * ({@link io.tributary.flower.relay.Relay}).
 */
package io.tributary.flower.relay;
