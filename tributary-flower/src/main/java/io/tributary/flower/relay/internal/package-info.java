/**
 * A relay's moving parts: the Flower client it is to its server, whose fit and evaluation are
 * edge rounds run by the runtime over the relay's own clients.
 */
package io.tributary.flower.relay.internal;
