/**
 * The server side of Flower's SecAgg+ in Java: {@link io.tributary.flower.secaggplus.SecAggPlusWorkflow}
 * drives the four stages of Flower 1.27's {@code SecAggPlusWorkflow} over any transport that
 * delivers {@code train} messages to nodes wearing Flower's {@code secaggplus_mod} or
 * {@link io.tributary.flower.app.mod.SecAggPlusMod}, and returns the unmasked weighted mean.
 */
package io.tributary.flower.secaggplus;
