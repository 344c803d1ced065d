/**
 * Differentially private aggregators (DP-FedAvg, McMahan et al. 2018) for the learning module's
 * {@link io.tributary.learning.aggregation.Aggregator} interface: {@link
 * io.tributary.privacy.aggregation.DpAggregator} clips each client's update, sums, adds Gaussian
 * noise on the server and divides by the expected number of clients, with a fixed or an adaptive
 * clipping norm, the clip declared as the server's (central DP) or the clients' (client-side DP,
 * optionally with local noise); {@link io.tributary.privacy.aggregation.DpSettings} holds the
 * settings of {@code tributary simulate} and {@code tributary server}'s {@code --dp} flags and
 * reads the privacy spent from the {@link io.tributary.privacy.RdpAccountant}.
 */
package io.tributary.privacy.aggregation;
