/**
 * Flower's ClientApp mods in Java: {@link io.tributary.flower.app.mod.FixedClippingMod} and
 * {@link io.tributary.flower.app.mod.AdaptiveClippingMod}, the client side of Flower's
 * client-side-clipping differential privacy strategies, and
 * {@link io.tributary.flower.app.mod.SecAggPlusMod}, the client side of Flower's
 * {@code SecAggPlusWorkflow}.
 */
package io.tributary.flower.app.mod;
