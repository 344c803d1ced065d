package io.tributary.privacy.aggregation;

/** Who clips the clients' updates, and so who may see them unclipped. */
public enum DpMode {
  /**
   * Central DP: the server is trusted with the updates and clips them (Flower's {@code
   * DifferentialPrivacyServerSideFixedClipping} and {@code ...AdaptiveClipping}).
   */
  CENTRAL,
  /**
   * Client-side DP: each client clips its own update before it leaves the client, optionally adds
   * local noise, and the server only adds the central noise (Flower's {@code
   * DifferentialPrivacyClientSide...Clipping} with the {@code fixedclipping_mod} or {@code
   * adaptiveclipping_mod} on the clients, which read {@code clipping_norm} from the fit config).
   */
  CLIENT;

  /** The name on the command line, {@code central} or {@code client}. */
  public String cliName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * The mode named {@code text}.
   *
   * @throws IllegalArgumentException naming {@code mode} when it is neither
   */
  public static DpMode parse(String text) {
    return switch (text) {
      case "central" -> CENTRAL;
      case "client" -> CLIENT;
      default -> throw new IllegalArgumentException("mode must be central or client, got '"
          + text + "'");
    };
  }
}
