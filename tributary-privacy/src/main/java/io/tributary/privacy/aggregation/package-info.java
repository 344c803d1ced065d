/**
 * Differentially private aggregators (DP-FedAvg, McMahan et al. 2018) for the learning module's
 * {@link io.tributary.learning.aggregation.Aggregator} interface: {@link
 * io.tributary.privacy.aggregation.DpAggregator} clips each client's update, sums, adds Gaussian
 * noise on the server and divides by the expected number of clients, with a fixed or an adaptive
 * clipping norm, the clip declared as the server's (central DP) or the clients' (client-side DP,
 * optionally with local noise); {@link io.tributary.privacy.aggregation.DpSettings} holds the
 * settings of {@code tributary simulate} and {@code tributary server}'s {@code --dp} flags and
 * reads the privacy spent from the {@link io.tributary.privacy.RdpAccountant}.
 *
 * <pre>{@code
 * DpSettings dp = DpSettings.builder(DpMode.CENTRAL).clip(1.0).adaptive().build()
 *     .calibrated(3.0, 0.1, 50);   // the noise for epsilon 3 over 50 rounds sampling 10%
 * PrivacySpent spent = dp.spent(0.1, 50);   // epsilon at the settings' delta
 * }</pre>
 *
 * <p>A value out of range is refused naming the setting as {@code DpSettings} calls it ({@code
 * noiseMultiplier must be positive and finite}); the command line names its flag.
 */
package io.tributary.privacy.aggregation;
