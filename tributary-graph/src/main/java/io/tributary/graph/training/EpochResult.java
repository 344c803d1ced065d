package io.tributary.graph.training;

/**
 * What one epoch of training did.
 *
 * @param meanLoss the example-weighted mean of the batch losses (each computed before its step)
 * @param examples how many examples were seen
 * @param batches how many steps were taken
 */
public record EpochResult(double meanLoss, long examples, long batches) {}
