package io.tributary.flower.secaggplus.internal;

import io.tributary.flower.records.ConfigRecord;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** Typed reads of a SecAgg+ ConfigRecord, each failure naming the key. */
public final class ConfigValues {
  private ConfigValues() {}

  /** An integer value (Flower's {@code int}, not a bool or float). */
  public static long integer(ConfigRecord c, String key) throws SecAggPlusException {
    Object v = c.get(key);
    if (v instanceof Long l) {
      return l;
    }
    throw wrongType(key, v, "int");
  }

  /** A float value (Flower's {@code float}). */
  public static double real(ConfigRecord c, String key) throws SecAggPlusException {
    Object v = c.get(key);
    if (v instanceof Double d) {
      return d;
    }
    throw wrongType(key, v, "float");
  }

  /** A number, int or float. */
  public static double number(ConfigRecord c, String key) throws SecAggPlusException {
    Object v = c.get(key);
    if (v instanceof Double || v instanceof Long) {
      return ((Number) v).doubleValue();
    }
    throw wrongType(key, v, "int or float");
  }

  /** A list of node ids (unsigned 64-bit), as the bits of each. */
  public static List<Long> nodeIds(ConfigRecord c, String key) throws SecAggPlusException {
    Object v = c.get(key);
    if (!(v instanceof List<?> list)) {
      throw wrongType(key, v, "List[int]");
    }
    List<Long> out = new ArrayList<>(list.size());
    for (Object e : list) {
      if (e instanceof Long l && l >= 0) {
        out.add(l);
      } else if (e instanceof BigInteger b && b.signum() >= 0 && b.bitLength() <= 64) {
        out.add(b.longValue());
      } else {
        throw wrongType(key, v, "List[int] of node ids");
      }
    }
    return out;
  }

  /** A list of bytes. */
  public static List<byte[]> bytesList(ConfigRecord c, String key) throws SecAggPlusException {
    Object v = c.get(key);
    if (!(v instanceof List<?> list)) {
      throw wrongType(key, v, "List[bytes]");
    }
    List<byte[]> out = new ArrayList<>(list.size());
    for (Object e : list) {
      if (!(e instanceof byte[] b)) {
        throw wrongType(key, v, "List[bytes]");
      }
      out.add(b);
    }
    return out;
  }

  /** The config value of a node id: a long below 2^63, an unsigned BigInteger above. */
  public static Object nodeIdValue(long bits) {
    return bits >= 0 ? (Object) bits : new BigInteger(Long.toUnsignedString(bits));
  }

  private static SecAggPlusException wrongType(String key, Object v, String expected) {
    return new SecAggPlusException(v == null
        ? "the required key '" + key + "' is missing from the ConfigRecord"
        : "the value for the key '" + key + "' must be of type " + expected + ", but got "
            + v.getClass().getSimpleName());
  }
}
