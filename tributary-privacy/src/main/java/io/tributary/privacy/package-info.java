/**
 * Differential privacy: {@link io.tributary.privacy.Clipping} (flat L2 clipping and Gaussian
 * noise), {@link io.tributary.privacy.NoiseSource} (secure by default), {@link
 * io.tributary.privacy.AdaptiveClipping}, {@link io.tributary.privacy.DpFormulas} (noise scales),
 * and the accounting: {@link io.tributary.privacy.RdpAccountant} composes the Rényi DP of the
 * sampled Gaussian mechanism ({@link io.tributary.privacy.SampledGaussian}) over rounds, with
 * Poisson or fixed-size sampling, and converts it to (epsilon, delta). Secure aggregation
 * (SecAgg+) is in {@link io.tributary.privacy.secagg}.
 */
package io.tributary.privacy;
