package io.tributary.flower.fleet.internal;

import io.tributary.flower.internal.proto.Scalar;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A run's config as Flower's {@code get_fused_config_from_fab} makes it: the FAB's
 * {@code [tool.flwr.app.config]} table, with the run's override config on top. The TOML reader
 * takes the flat {@code key = value} lines (strings, integers, floats, booleans) that app configs
 * use; other lines of the table are skipped.
 */
public final class RunConfigs {
  private static final int MAX_PYPROJECT = 1 << 20;

  private RunConfigs() {}

  /** The config table of the FAB's {@code pyproject.toml}; empty when it has none. */
  public static Map<String, Object> fromFab(byte[] fab) {
    try (ZipInputStream z = new ZipInputStream(new ByteArrayInputStream(fab))) {
      for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
        if (e.getName().equals("pyproject.toml")) {
          byte[] text = z.readNBytes(MAX_PYPROJECT);
          return fromToml(new String(text, StandardCharsets.UTF_8));
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      return Map.of();
    }
    return Map.of();
  }

  static Map<String, Object> fromToml(String toml) {
    Map<String, Object> out = new LinkedHashMap<>();
    boolean in = false;
    for (String raw : toml.split("\n")) {
      String line = raw.strip();
      if (line.startsWith("[")) {
        in = line.equals("[tool.flwr.app.config]");
        continue;
      }
      int eq = line.indexOf('=');
      if (!in || line.startsWith("#") || eq < 0) {
        continue;
      }
      String key = unquote(line.substring(0, eq).strip());
      Object v = value(line.substring(eq + 1).strip());
      if (v != null) {
        out.put(key, v);
      }
    }
    return out;
  }

  private static String unquote(String s) {
    if (s.length() >= 2 && (s.startsWith("\"") && s.endsWith("\"")
        || s.startsWith("'") && s.endsWith("'"))) {
      return s.substring(1, s.length() - 1);
    }
    return s;
  }

  private static Object value(String s) {
    if (s.startsWith("\"") || s.startsWith("'")) {
      char q = s.charAt(0);
      int end = s.indexOf(q, 1);
      return end < 0 ? null : s.substring(1, end);
    }
    int hash = s.indexOf('#');
    if (hash >= 0) {
      s = s.substring(0, hash).strip();
    }
    if (s.equals("true") || s.equals("false")) {
      return Boolean.parseBoolean(s);
    }
    String n = s.replace("_", "");
    try {
      return Long.parseLong(n);
    } catch (NumberFormatException e) {
      try {
        return Double.parseDouble(n);
      } catch (NumberFormatException e2) {
        return null;
      }
    }
  }

  /** The run's overrides as Java values. */
  public static Map<String, Object> fromScalars(Map<String, Scalar> scalars) {
    Map<String, Object> out = new LinkedHashMap<>();
    scalars.forEach((k, v) -> {
      switch (v.getScalarCase()) {
        case DOUBLE -> out.put(k, v.getDouble());
        case SINT64 -> out.put(k, v.getSint64());
        case UINT64 -> out.put(k, v.getUint64());
        case BOOL -> out.put(k, v.getBool());
        case STRING -> out.put(k, v.getString());
        case BYTES -> out.put(k, v.getBytes().toByteArray());
        default -> { }
      }
    });
    return out;
  }
}
