/**
 * The algorithm suite as registered specs, one small class each: Flower's strategies by Flower's
 * names, hyperparameters and defaults (FedAvg, FedAvgM, FedProx, FedAdam, FedYogi, FedAdagrad,
 * FedMedian, FedTrimmedAvg, Krum, Multi-Krum, Bulyan, q-FedAvg), then hierarchical FedAvg
 * through edges (HierFAVG), found through {@link
 * io.tributary.learning.AlgorithmRegistry}.
 */
package io.tributary.learning.suite;
