/**
 * A Tributary server for Flower's SuperNodes: {@link io.tributary.flower.fleet.server.FleetServer}
 * serves Flower's Fleet API (grpc-rere or HTTP) and a Flower App
 * ({@link io.tributary.flower.fleet.server.FlowerApp}), and runs Tributary's rounds over the
 * nodes that join, together with legacy Join clients.
 */
package io.tributary.flower.fleet.server;
