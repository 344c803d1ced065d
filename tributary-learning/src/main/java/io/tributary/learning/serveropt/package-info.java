/**
 * Server optimizers: how the aggregated update changes the global model, with state (FedAvgM's
 * momentum, FedAdam's, FedYogi's and FedAdagrad's moments), by Flower's formulas.
 */
package io.tributary.learning.serveropt;
