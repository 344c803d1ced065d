package io.tributary.flower.secaggplus.internal;

/** The stages of Flower's SecAgg+ in protocol order, by their wire names. */
public enum Stage {
  SETUP("setup"),
  SHARE_KEYS("share_keys"),
  COLLECT_MASKED_VECTORS("collect_masked_vectors"),
  UNMASK("unmask");

  private final String wire;

  Stage(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  /** The stage after this one, {@code setup} after {@code unmask}. */
  public Stage next() {
    return values()[(ordinal() + 1) % values().length];
  }

  /** The stage of a wire name. */
  public static Stage of(String wire) throws SecAggPlusException {
    for (Stage s : values()) {
      if (s.wire.equals(wire)) {
        return s;
      }
    }
    throw new SecAggPlusException("unknown SecAgg+ stage '" + wire + "'");
  }
}
