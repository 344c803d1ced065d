/**
 * Aggregation rules over one round's client updates, by Flower's formulas, one class each: the
 * weighted and unweighted means ({@link WeightedMean}, {@link UnweightedMean}, which stream), the
 * coordinate-wise median and trimmed mean ({@link CoordinateMedian}, {@link TrimmedMean}), Krum
 * and Multi-Krum ({@link Krum}), Bulyan ({@link Bulyan}) and q-FedAvg ({@link QFedAvg}). Each
 * class holds its rule's arithmetic and what the rule holds in memory. A rule of one's own is a
 * {@link WholeRoundAggregator}, or one lambda given to {@link WholeRoundAggregator#of}.
 */
package io.tributary.learning.aggregation;
