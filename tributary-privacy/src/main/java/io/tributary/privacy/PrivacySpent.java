package io.tributary.privacy;

/**
 * An (epsilon, delta) differential-privacy guarantee, and the Rényi order it was read at.
 *
 * @param epsilon the privacy loss bound, >= 0, or infinity when nothing is guaranteed
 * @param delta the probability the bound may fail
 * @param order the Rényi order that gave the smallest epsilon (NaN when epsilon is infinite)
 */
public record PrivacySpent(double epsilon, double delta, double order) {}
