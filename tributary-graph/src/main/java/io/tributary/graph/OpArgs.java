package io.tributary.graph;

import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * An op's named arguments, encoded as ADR-0001 describes: four parallel name/value lists, for
 * integer, floating, boolean and dtype arguments.
 *
 * <p>A list of integers (axes, a permutation, a target shape) is stored as {@code name#len} plus
 * {@code name#0}, {@code name#1}, ... so that it still fits the four scalar lists. Immutable;
 * names are unique across all four lists. Equality compares the lists in order.
 */
public final class OpArgs {
  private static final OpArgs EMPTY = new Builder().build();

  private final List<String> intNames;
  private final long[] intValues;
  private final List<String> floatNames;
  private final double[] floatValues;
  private final List<String> boolNames;
  private final boolean[] boolValues;
  private final List<String> dtypeNames;
  private final List<DType> dtypeValues;

  private OpArgs(Builder b) {
    this.intNames = List.copyOf(b.intNames);
    this.intValues = b.intValues.stream().mapToLong(Long::longValue).toArray();
    this.floatNames = List.copyOf(b.floatNames);
    this.floatValues = b.floatValues.stream().mapToDouble(Double::doubleValue).toArray();
    this.boolNames = List.copyOf(b.boolNames);
    this.boolValues = new boolean[b.boolValues.size()];
    for (int i = 0; i < boolValues.length; i++) {
      boolValues[i] = b.boolValues.get(i);
    }
    this.dtypeNames = List.copyOf(b.dtypeNames);
    this.dtypeValues = List.copyOf(b.dtypeValues);
  }

  /** No arguments. */
  public static OpArgs none() {
    return EMPTY;
  }

  public static Builder builder() {
    return new Builder();
  }

  public List<String> intNames() {
    return intNames;
  }

  public long[] intValues() {
    return intValues.clone();
  }

  public List<String> floatNames() {
    return floatNames;
  }

  public double[] floatValues() {
    return floatValues.clone();
  }

  public List<String> boolNames() {
    return boolNames;
  }

  public boolean[] boolValues() {
    return boolValues.clone();
  }

  public List<String> dtypeNames() {
    return dtypeNames;
  }

  public List<DType> dtypeValues() {
    return dtypeValues;
  }

  /** True when an argument of any kind (or an integer list) has this name. */
  public boolean has(String name) {
    return intNames.contains(name)
        || floatNames.contains(name)
        || boolNames.contains(name)
        || dtypeNames.contains(name)
        || intNames.contains(name + "#len");
  }

  /** The integer argument, or {@code fallback} when absent. */
  public long getInt(String name, long fallback) {
    int i = intNames.indexOf(name);
    return i < 0 ? fallback : intValues[i];
  }

  /** The floating argument, or {@code fallback} when absent. */
  public double getFloat(String name, double fallback) {
    int i = floatNames.indexOf(name);
    return i < 0 ? fallback : floatValues[i];
  }

  /** The boolean argument, or {@code fallback} when absent. */
  public boolean getBool(String name, boolean fallback) {
    int i = boolNames.indexOf(name);
    return i < 0 ? fallback : boolValues[i];
  }

  /** The dtype argument, or {@code fallback} when absent. */
  public DType getDType(String name, DType fallback) {
    int i = dtypeNames.indexOf(name);
    return i < 0 ? fallback : dtypeValues.get(i);
  }

  /**
   * The integer list argument, or {@code null} when absent.
   *
   * @throws IllegalArgumentException when the length entry is present but an element is missing
   */
  public long[] getIntList(String name) {
    // Looked up on every training step (reduction axes): find the entries without building keys.
    int li = listEntry(name, -1);
    if (li < 0) {
      return null;
    }
    long len = intValues[li];
    if (len < 0 || len > intNames.size()) {
      throw new IllegalArgumentException("integer list argument " + name + " has bad length " + len);
    }
    long[] out = new long[(int) len];
    for (int k = 0; k < out.length; k++) {
      int i = listEntry(name, k);
      if (i < 0) {
        throw new IllegalArgumentException("integer list argument " + name + " lacks element " + k);
      }
      out[k] = intValues[i];
    }
    return out;
  }

  /**
   * The index among the integer arguments of list {@code name}'s entry {@code name#k}, or of its
   * length {@code name#len} when k is -1; -1 when absent.
   */
  private int listEntry(String name, int k) {
    int at = name.length();
    for (int i = 0; i < intNames.size(); i++) {
      String n = intNames.get(i);
      if (n.length() <= at + 1 || !n.startsWith(name) || n.charAt(at) != '#') {
        continue;
      }
      if (k < 0 ? n.length() == at + 4 && n.endsWith("len") : isIndex(n, at + 1, k)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether {@code n} from {@code from} to its end is the decimal form of {@code k} (k >= 0). */
  private static boolean isIndex(String n, int from, int k) {
    int v = 0;
    for (int i = from; i < n.length(); i++) {
      char c = n.charAt(i);
      if (c < '0' || c > '9' || (i == from && c == '0' && n.length() > from + 1)) {
        return false;
      }
      v = v * 10 + (c - '0');
      if (v > k) {
        return false;
      }
    }
    return v == k;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OpArgs a
        && intNames.equals(a.intNames)
        && java.util.Arrays.equals(intValues, a.intValues)
        && floatNames.equals(a.floatNames)
        && java.util.Arrays.equals(
            java.util.Arrays.stream(floatValues).mapToLong(Double::doubleToRawLongBits).toArray(),
            java.util.Arrays.stream(a.floatValues).mapToLong(Double::doubleToRawLongBits).toArray())
        && boolNames.equals(a.boolNames)
        && java.util.Arrays.equals(boolValues, a.boolValues)
        && dtypeNames.equals(a.dtypeNames)
        && dtypeValues.equals(a.dtypeValues);
  }

  @Override
  public int hashCode() {
    return Objects.hash(intNames, java.util.Arrays.hashCode(intValues), floatNames, boolNames,
        dtypeNames, dtypeValues);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < intNames.size(); i++) {
      sb.append(sb.length() > 1 ? ", " : "").append(intNames.get(i)).append('=').append(intValues[i]);
    }
    for (int i = 0; i < floatNames.size(); i++) {
      sb.append(sb.length() > 1 ? ", " : "").append(floatNames.get(i)).append('=')
          .append(floatValues[i]);
    }
    for (int i = 0; i < boolNames.size(); i++) {
      sb.append(sb.length() > 1 ? ", " : "").append(boolNames.get(i)).append('=').append(boolValues[i]);
    }
    for (int i = 0; i < dtypeNames.size(); i++) {
      sb.append(sb.length() > 1 ? ", " : "").append(dtypeNames.get(i)).append('=')
          .append(dtypeValues.get(i));
    }
    return sb.append('}').toString();
  }

  /** Collects arguments; names must be unique across all kinds. */
  public static final class Builder {
    private final Set<String> seen = new HashSet<>();
    private final List<String> intNames = new ArrayList<>();
    private final List<Long> intValues = new ArrayList<>();
    private final List<String> floatNames = new ArrayList<>();
    private final List<Double> floatValues = new ArrayList<>();
    private final List<String> boolNames = new ArrayList<>();
    private final List<Boolean> boolValues = new ArrayList<>();
    private final List<String> dtypeNames = new ArrayList<>();
    private final List<DType> dtypeValues = new ArrayList<>();

    private Builder() {}

    private void claim(String name) {
      Objects.requireNonNull(name, "argument name");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("argument name must not be empty");
      }
      if (!seen.add(name)) {
        throw new IllegalArgumentException("duplicate argument name " + name);
      }
    }

    public Builder putInt(String name, long value) {
      claim(name);
      intNames.add(name);
      intValues.add(value);
      return this;
    }

    public Builder putFloat(String name, double value) {
      claim(name);
      floatNames.add(name);
      floatValues.add(value);
      return this;
    }

    public Builder putBool(String name, boolean value) {
      claim(name);
      boolNames.add(name);
      boolValues.add(value);
      return this;
    }

    public Builder putDType(String name, DType value) {
      claim(name);
      dtypeNames.add(name);
      dtypeValues.add(Objects.requireNonNull(value, "dtype value"));
      return this;
    }

    /** Stores an integer list as {@code name#len}, {@code name#0}, {@code name#1}, ... */
    public Builder putIntList(String name, long... values) {
      claim(name);
      putInt(name + "#len", values.length);
      for (int k = 0; k < values.length; k++) {
        putInt(name + "#" + k, values[k]);
      }
      return this;
    }

    public OpArgs build() {
      return new OpArgs(this);
    }
  }
}
