/**
 * The server's moving parts: one proxy per {@code Join} stream, the client manager, the
 * interceptors that authenticate and negotiate before any state changes, and the Java functions
 * through which the runtime's federated computations reach remote clients.
 */
package io.tributary.flower.server.internal;
