/**
 * Aggregation rules over one round's client updates, by Flower's formulas: weighted and
 * unweighted means, coordinate-wise median and trimmed mean, Krum, Multi-Krum and Bulyan. The
 * federated aggregators of the algorithm suite compute with these.
 */
package io.tributary.learning.aggregation;
