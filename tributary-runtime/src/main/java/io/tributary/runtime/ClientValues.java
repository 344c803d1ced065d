package io.tributary.runtime;

import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * The value of a {@code {T}@CLIENTS} argument: one member value per client, either held in a list
 * or produced on demand from the client's index.
 *
 * <p>A generated population never holds more than the values being worked on: the runtime asks
 * for client {@code i}'s value when it processes client {@code i} and drops it after, so a
 * population of 100,000 clients with a 4 MB tensor each runs in a small heap. A generator must be
 * deterministic (the same index gives an equal value every time) and safe to call from several
 * threads; it may be called more than once for one client.
 */
public final class ClientValues {
  private final int size;
  private final List<?> list;
  private final IntFunction<?> generator;

  private ClientValues(int size, List<?> list, IntFunction<?> generator) {
    this.size = size;
    this.list = list;
    this.generator = generator;
  }

  /** The clients' values held in memory; client {@code i} holds {@code values.get(i)}. */
  public static ClientValues of(List<?> values) {
    Objects.requireNonNull(values, "values");
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i) == null) {
        throw new IllegalArgumentException("the value of client " + i + " is null");
      }
    }
    return new ClientValues(values.size(), List.copyOf(values), null);
  }

  /**
   * {@code size} clients whose values are made on demand by {@code generator}.
   *
   * @throws IllegalArgumentException if {@code size} is negative
   */
  public static ClientValues generate(int size, IntFunction<?> generator) {
    Objects.requireNonNull(generator, "generator");
    if (size < 0) {
      throw new IllegalArgumentException("a population cannot have " + size + " clients");
    }
    return new ClientValues(size, null, generator);
  }

  /** The number of clients. */
  public int size() {
    return size;
  }

  /** True when every value is already in memory (made by {@link #of}). */
  public boolean inMemory() {
    return list != null;
  }

  /**
   * Client {@code index}'s value.
   *
   * @throws IllegalStateException if a generator returns null
   */
  public Object get(int index) {
    Objects.checkIndex(index, size);
    if (list != null) {
      return list.get(index);
    }
    Object v = generator.apply(index);
    if (v == null) {
      throw new IllegalStateException("the generator returned null for client " + index);
    }
    return v;
  }

  @Override
  public String toString() {
    return "ClientValues[" + size + (list != null ? " in memory]" : " generated]");
  }
}
