/**
 * SecAgg+ secure aggregation over Flower's messages, for Java clients and the Java server.
 *
 * <p>The layout both ends follow is {@link io.tributary.flower.secagg.SecAggFlower}'s; the
 * client side is {@link io.tributary.flower.secagg.SecAggClientAdapter}, which lets any Java
 * Flower client send only masked updates; the server side is
 * {@link io.tributary.flower.secagg.SecAggServerProtocol}, which
 * {@code io.tributary.flower.server.FlowerServer} finds through
 * {@link java.util.ServiceLoader} when its {@code ServerConfig} asks for
 * {@code secureAggregation}. A Fleet server's secure passes (a computation that sums securely,
 * such as {@code DpAggregator.withSecureSum}, run with each node computing its own client) use
 * {@link io.tributary.flower.secagg.SecAggPasses}, found the same way, and the nodes {@link
 * io.tributary.flower.secagg.SecAggPassNode}. The module joins the transport ({@code tributary-flower}) to
 * SecAgg+ ({@code tributary-privacy}'s {@code io.tributary.privacy.secagg}), so that the
 * transport itself needs no cryptography.
 */
package io.tributary.flower.secagg;
