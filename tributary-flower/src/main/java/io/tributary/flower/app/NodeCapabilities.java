package io.tributary.flower.app;

import io.tributary.flower.Scalar;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * What a node states about itself when the server asks: the answer to a capability query, a
 * Flower {@code query} message (the Message-API form of the protocol's {@code GetPropertiesIns})
 * whose config holds {@value #QUERY_KEY} = {@value #QUERY_VALUE}. The reply carries the
 * properties as a config record, {@value #PROPERTIES} (or {@code getpropertiesres.properties} in
 * the DefaultWorkflow layout, whose query config is {@code getpropertiesins.config}), as a
 * FlowerClient's {@code GetPropertiesRes} does. A ClientApp {@link ClientApp#withCapabilities
 * with capabilities} answers the query itself, before its mods and handlers; one without them
 * (and any Flower Python ClientApp) answers as it answers any query, which states none.
 *
 * @param properties the properties, each a Flower config value ({@code Long}, {@code Double},
 *     {@code Boolean}, {@code String})
 */
public record NodeCapabilities(SequencedMap<String, Object> properties) {
  /** The config key of a capability query. */
  public static final String QUERY_KEY = "tributary.query";
  /** Its value. */
  public static final String QUERY_VALUE = "capabilities";
  /** The reply's config record of the properties, in the Message-API layout. */
  public static final String PROPERTIES = "properties";
  private static final String LEGACY_CONFIG = "getpropertiesins.config";
  private static final String LEGACY_PROPERTIES = "getpropertiesres.properties";

  /** Copies the properties; a {@link ConfigRecord} checks each value's type. */
  public NodeCapabilities {
    properties = new ConfigRecord(Objects.requireNonNull(properties, "properties")).values();
  }

  /** Capabilities of these properties, in order. */
  public static NodeCapabilities of(Map<String, ?> properties) {
    return new NodeCapabilities(new LinkedHashMap<>(properties));
  }

  /** Whether {@code message} is a capability query. */
  public static boolean isQuery(Message message) {
    if (!message.hasContent() || !message.metadata().messageType().equals(ClientApp.QUERY)) {
      return false;
    }
    for (String key : new String[] {"config", LEGACY_CONFIG}) {
      if (message.content().get(key) instanceof ConfigRecord c && asks(c.get(QUERY_KEY))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code config}, a {@code GetPropertiesIns}'s config on the Join transport, is a
   * capability query: the test {@link #isQuery(Message)} makes of a query message's config
   * record, made of each value as a config record holds it.
   */
  public static boolean isQuery(Map<String, Scalar> config) {
    Scalar value = config.get(QUERY_KEY);
    return value != null && asks(value.recordValue());
  }

  /** Whether {@code value}, of {@value #QUERY_KEY} in a config record, asks for capabilities. */
  private static boolean asks(Object value) {
    return QUERY_VALUE.equals(value);
  }

  /** The reply to the capability query {@code message}, in the layout it came in. */
  Message answer(Message message) {
    String key = message.content().get(LEGACY_CONFIG) instanceof ConfigRecord
        ? LEGACY_PROPERTIES : PROPERTIES;
    LinkedHashMap<String, Record> out = new LinkedHashMap<>();
    out.put(key, new ConfigRecord(properties));
    if (key.equals(LEGACY_PROPERTIES)) {
      // Flower's compat layout states the outcome, as a FlowerClient's answer does.
      LinkedHashMap<String, Object> status = new LinkedHashMap<>();
      status.put("code", 0L);
      status.put("message", "Success");
      out.put("getpropertiesres.status", new ConfigRecord(status));
    }
    return message.reply(new RecordDict(out));
  }
}
