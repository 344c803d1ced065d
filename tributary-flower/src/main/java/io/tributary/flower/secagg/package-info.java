/**
 * SecAgg+ secure aggregation over Flower's messages: the layout both ends follow
 * ({@link io.tributary.flower.secagg.SecAggFlower}) and the client side
 * ({@link io.tributary.flower.secagg.SecAggClientAdapter}), which lets any Java Flower client
 * send only masked updates. The server side is the {@code secureAggregation} option of
 * {@code io.tributary.flower.server.ServerConfig}.
 */
package io.tributary.flower.secagg;
