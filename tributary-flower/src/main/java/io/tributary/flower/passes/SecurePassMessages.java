package io.tributary.flower.passes;

import io.tributary.flower.Scalar;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The layout of a secure pass's Fleet messages: each stage of the protocol is a message of type
 * {@value #MESSAGE_TYPE} whose content holds the stage's entries in the config record {@value
 * #STAGE_RECORD}; the stage that computes the client also carries the pass ({@value
 * #SPEC_RECORD}: the {@link ComputationSpec}'s keys; {@value #PASS_RECORD}: which computation,
 * the pass's index, the client's index and its {@code PassInputs} bytes; {@value
 * #FIT_CONFIG_RECORD}: the round's fit config), and the node's reply to it the pass part's bytes
 * ({@value #PART_RECORD}).
 */
public final class SecurePassMessages {
  /** The message type of every stage of a secure pass. */
  public static final String MESSAGE_TYPE = "train.tributary_secure_pass";
  /** The config record of the protocol's entries, in both directions. */
  public static final String STAGE_RECORD = "tributary.stage";
  /** The config record of the computation's spec. */
  public static final String SPEC_RECORD = "tributary.spec";
  /** The config record of the pass. */
  public static final String PASS_RECORD = "tributary.pass";
  /** The config record of the round's fit config. */
  public static final String FIT_CONFIG_RECORD = "tributary.fit_config";
  /** The config record of the node's pass part, in its reply. */
  public static final String PART_RECORD = "tributary.part";

  /** Pass key: the computation the pass belongs to, {@value #NEXT} or {@value #EVALUATE}. */
  public static final String COMPUTATION = "computation";
  /** The round computation. */
  public static final String NEXT = "next";
  /** The evaluation computation. */
  public static final String EVALUATE = "evaluate";
  /** Pass key: the pass's index in its invocation (int). */
  public static final String PASS = "pass";
  /** Pass key: the client's index in the pass, the node's group (int). */
  public static final String CLIENT = "client";
  /** Pass key: the client's {@code PassInputs} bytes. */
  public static final String INPUTS = "inputs";
  /** Part key: the pass part's payload bytes. */
  public static final String PAYLOAD = "payload";
  /** Pass key: the server's runtime seed (int), which a client's randomness derives from. */
  public static final String SEED = "seed";
  /** Pass key: the server's bound on a weight (double; absent: none). */
  public static final String MAX_WEIGHT = "max_weight";
  /** Pass key: what a weight above the bound does, {@code CLIP} or {@code EXCLUDE}. */
  public static final String OVER_WEIGHT = "over_weight";
  /** The most bytes a node's pass part may have: 256 MiB, as the Fleet limits on a reply. */
  public static final int MAX_PAYLOAD_BYTES = 256 << 20;

  private SecurePassMessages() {}

  /**
   * The int under {@code key} of a config record's values.
   *
   * @throws IllegalArgumentException when it is missing or not an int
   */
  public static long longOf(Map<String, ?> values, String key) {
    return switch (values.get(key)) {
      case Long l -> l;
      case Scalar.Int i -> i.value();
      case null -> throw new IllegalArgumentException(key + " is missing");
      case Object o -> throw new IllegalArgumentException(key + " must be an int, got a "
          + o.getClass().getSimpleName());
    };
  }

  /**
   * The bytes under {@code key} of a config record's values.
   *
   * @throws IllegalArgumentException when they are missing or not bytes
   */
  public static byte[] bytesOf(Map<String, ?> values, String key) {
    return switch (values.get(key)) {
      case byte[] b -> b;
      case Scalar.Bytes b -> b.value();
      case null -> throw new IllegalArgumentException(key + " is missing");
      case Object o -> throw new IllegalArgumentException(key + " must be bytes, got a "
          + o.getClass().getSimpleName());
    };
  }

  /** {@code values} of a config record as Flower scalars; lists, which have none, are left out. */
  public static Map<String, Scalar> scalars(Map<String, ?> values) {
    Map<String, Scalar> out = new LinkedHashMap<>();
    values.forEach((k, v) -> {
      switch (v) {
        case Scalar s -> out.put(k, s);
        case Double d -> out.put(k, Scalar.of(d));
        case Long l -> out.put(k, Scalar.of(l));
        case Boolean b -> out.put(k, Scalar.of(b));
        case String s -> out.put(k, Scalar.of(s));
        case byte[] b -> out.put(k, new Scalar.Bytes(b));
        case BigInteger u -> out.put(k, new Scalar.UInt(u.longValue()));
        default -> { }
      }
    });
    return out;
  }

  /** {@code values} as a config record's values (what a {@code ConfigRecord} holds). */
  public static Map<String, Object> values(Map<String, Scalar> scalars) {
    Map<String, Object> out = new LinkedHashMap<>();
    scalars.forEach((k, v) -> out.put(k, v.recordValue()));
    return out;
  }
}
