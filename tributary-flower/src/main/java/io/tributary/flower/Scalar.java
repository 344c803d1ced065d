package io.tributary.flower;

import java.util.Arrays;
import java.util.Objects;

/**
 * One typed value of a Flower config, properties or metrics map: Flower's {@code Scalar} message.
 *
 * <p>Integers are signed 64-bit ({@link Int}, sent as {@code sint64}, as Python Flower does);
 * {@link UInt} carries the values above {@code Long.MAX_VALUE} that Python sends as
 * {@code uint64}, as the unsigned bits of a long.
 */
public sealed interface Scalar {
  /** A 64-bit float ({@code double = 1}). */
  record Double(double value) implements Scalar {}

  /** A signed 64-bit integer ({@code sint64 = 8}). */
  record Int(long value) implements Scalar {}

  /** An unsigned 64-bit integer ({@code uint64 = 6}); {@code bits} is read as unsigned. */
  record UInt(long bits) implements Scalar {
    @Override
    public String toString() {
      return "UInt[" + Long.toUnsignedString(bits) + "]";
    }
  }

  /** A boolean ({@code bool = 13}). */
  record Bool(boolean value) implements Scalar {}

  /** A UTF-8 string ({@code string = 14}). */
  record Str(String value) implements Scalar {
    public Str {
      Objects.requireNonNull(value, "value");
    }
  }

  /** Raw bytes ({@code bytes = 15}); the array is copied in and out. */
  record Bytes(byte[] value) implements Scalar {
    public Bytes {
      value = value.clone();
    }

    @Override
    public byte[] value() {
      return value.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes b && Arrays.equals(value, b.value);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "Bytes[" + value.length + " bytes]";
    }
  }

  /**
   * This value as a config record holds it: a {@code Double}, {@code Long}, {@code BigInteger}
   * (unsigned), {@code Boolean}, {@code String} or {@code byte[]}.
   */
  default Object recordValue() {
    return switch (this) {
      case Double d -> d.value();
      case Int i -> i.value();
      case UInt u -> new java.math.BigInteger(Long.toUnsignedString(u.bits()));
      case Bool b -> b.value();
      case Str s -> s.value();
      case Bytes b -> b.value();
    };
  }

  static Scalar of(double v) {
    return new Double(v);
  }

  static Scalar of(long v) {
    return new Int(v);
  }

  static Scalar of(boolean v) {
    return new Bool(v);
  }

  static Scalar of(String v) {
    return new Str(v);
  }

  /** The value as a double, for the numeric kinds (an unsigned value converted exactly-rounded). */
  default java.util.OptionalDouble asDouble() {
    return switch (this) {
      case Double d -> java.util.OptionalDouble.of(d.value());
      case Int i -> java.util.OptionalDouble.of(i.value());
      case UInt u -> java.util.OptionalDouble.of(
          u.bits() >= 0 ? u.bits() : (u.bits() >>> 1) * 2.0 + (u.bits() & 1));
      case Bool b -> java.util.OptionalDouble.empty();
      case Str s -> java.util.OptionalDouble.empty();
      case Bytes b -> java.util.OptionalDouble.empty();
    };
  }
}
