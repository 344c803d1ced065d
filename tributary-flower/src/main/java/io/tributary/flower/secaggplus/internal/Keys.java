package io.tributary.flower.secaggplus.internal;

/** The record and config keys of Flower 1.27's {@code secaggplus_constants}. */
public final class Keys {
  public static final String RECORD_CONFIGS = "secaggplus_configs";
  public static final String STAGE = "stage";
  public static final String SAMPLE_NUMBER = "sample_num";
  public static final String SHARE_NUMBER = "share_num";
  public static final String THRESHOLD = "threshold";
  public static final String CLIPPING_RANGE = "clipping_range";
  public static final String TARGET_RANGE = "target_range";
  public static final String MOD_RANGE = "mod_range";
  public static final String MAX_WEIGHT = "max_weight";
  public static final String PUBLIC_KEY_1 = "pk1";
  public static final String PUBLIC_KEY_2 = "pk2";
  public static final String DESTINATION_LIST = "dsts";
  public static final String CIPHERTEXT_LIST = "ctxts";
  public static final String SOURCE_LIST = "srcs";
  public static final String MASKED_PARAMETERS = "masked_params";
  public static final String ACTIVE_NODE_ID_LIST = "active_nids";
  public static final String DEAD_NODE_ID_LIST = "dead_nids";
  public static final String NODE_ID_LIST = "nids";
  public static final String SHARE_LIST = "shares";

  private Keys() {}
}
