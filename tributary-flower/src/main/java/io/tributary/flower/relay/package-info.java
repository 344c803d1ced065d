/**
 * Relays: edge servers between clients and a Tributary server, the deployed form of the
 * {@code EDGES} placement ({@link io.tributary.flower.relay.Relay}).
 */
package io.tributary.flower.relay;
