package io.tributary.flower.app;

import io.tributary.flower.FlowerClient;
import io.tributary.flower.records.Message;
import java.util.List;

/**
 * One {@link FlowerClient} serving both of Flower's record layouts, told apart per message: a
 * message of Flower's DefaultWorkflow ({@code get_parameters}, {@code get_properties}, or a
 * {@code train}/{@code evaluate} message carrying {@code fitins.*}/{@code evaluateins.*}
 * records or SecAgg+'s {@code secaggplus_configs}) goes to {@link LegacyClientApp} wearing the
 * mods given (typically {@code SecAggPlusMod}); every other message to
 * {@link TrainingClientApp}'s Message-API layout. A node thus joins whatever run its SuperLink
 * gives it, FedAvg of {@code flwr.serverapp} or a {@code DefaultWorkflow} with
 * {@code SecAggPlusWorkflow}, without being told which beforehand.
 *
 * <p>Messages are handled one at a time: the client is not thread-safe.
 */
public final class DualLayoutClientApp {
  /** The ConfigRecord of every stage message of Flower's SecAggPlusWorkflow. */
  static final String SECAGGPLUS_CONFIGS = "secaggplus_configs";
  private static final List<String> LEGACY_PREFIXES = List.of("fitins.", "evaluateins.",
      "getparametersins.", "getpropertiesins.");

  private DualLayoutClientApp() {}

  /**
   * The app serving {@code client} in both layouts: Message-API replies with the metric keys
   * {@code trainKeys}/{@code evaluateKeys} (empty: the defaults), DefaultWorkflow messages
   * through {@code defaultWorkflowMods}, the first outermost.
   */
  public static ClientApp of(FlowerClient client, List<MetricKey> trainKeys,
      List<MetricKey> evaluateKeys, Mod... defaultWorkflowMods) {
    ClientApp message = TrainingClientApp.of(client, trainKeys, evaluateKeys);
    ClientApp legacy = LegacyClientApp.of(client).withMods(defaultWorkflowMods);
    Object lock = new Object();
    MessageHandler pick = (m, c) -> {
      synchronized (lock) {
        return (isDefaultWorkflow(m) ? legacy : message).handle(m, c);
      }
    };
    // The app chosen checks for non-finite arrays itself, in the layout it reads.
    return ClientApp.builder().acceptNonFinite().train(pick).evaluate(pick)
        .on(LegacyClientApp.GET_PARAMETERS, pick).on(LegacyClientApp.GET_PROPERTIES, pick)
        .build();
  }

  /** Whether {@code m} is in Flower's DefaultWorkflow layout (NumPyClient records, SecAgg+). */
  public static boolean isDefaultWorkflow(Message m) {
    String type = m.metadata().messageType();
    if (type.equals(LegacyClientApp.GET_PARAMETERS)
        || type.equals(LegacyClientApp.GET_PROPERTIES)) {
      return true;
    }
    if (!m.hasContent()) {
      return false;
    }
    for (String name : m.content().records().keySet()) {
      if (name.equals(SECAGGPLUS_CONFIGS)) {
        return true;
      }
      for (String p : LEGACY_PREFIXES) {
        if (name.startsWith(p)) {
          return true;
        }
      }
    }
    return false;
  }
}
