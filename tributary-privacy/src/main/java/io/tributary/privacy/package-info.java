/**
 * Differential-privacy accounting: {@link io.tributary.privacy.RdpAccountant} composes the Rényi
 * DP of the sampled Gaussian mechanism ({@link io.tributary.privacy.SampledGaussian}) over
 * rounds, with Poisson or fixed-size sampling, and converts it to (epsilon, delta).
 */
package io.tributary.privacy;
