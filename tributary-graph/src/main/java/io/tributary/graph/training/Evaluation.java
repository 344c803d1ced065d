package io.tributary.graph.training;

/**
 * Loss and accuracy over a dataset, each the example-weighted mean over its batches.
 *
 * @param loss mean loss
 * @param accuracy fraction of correct predictions
 * @param examples how many examples were evaluated
 */
public record Evaluation(double loss, double accuracy, long examples) {}
