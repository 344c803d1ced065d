package io.tributary.runtime;

import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;

/**
 * The value of a {@code {T}@CLIENTS} argument: one member value per client, either held in a list
 * or produced on demand from the client's index.
 *
 * <p>A generated population never holds more than the values being worked on: the runtime asks
 * for client {@code i}'s value when it processes client {@code i} and drops it after, so a
 * population of 100,000 clients with a 4 MB tensor each runs in a small heap. A generator must be
 * deterministic (the same index gives an equal value every time) and safe to call from several
 * threads; it may be called more than once for one client. A generated population may also say
 * how much work each client is ({@link #generate(int, IntFunction, IntToLongFunction)}) without
 * making its value, so that a pass starts its largest clients first as it does for values held in
 * memory.
 */
public final class ClientValues {
  private final int size;
  private final List<?> list;
  private final IntFunction<?> generator;
  private final IntToLongFunction cost;

  private ClientValues(int size, List<?> list, IntFunction<?> generator,
      IntToLongFunction cost) {
    this.size = size;
    this.list = list;
    this.generator = generator;
    this.cost = cost;
  }

  /** The clients' values held in memory; client {@code i} holds {@code values.get(i)}. */
  public static ClientValues of(List<?> values) {
    Objects.requireNonNull(values, "values");
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i) == null) {
        throw new IllegalArgumentException("the value of client " + i + " is null");
      }
    }
    return new ClientValues(values.size(), List.copyOf(values), null, null);
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
    return new ClientValues(size, null, generator, null);
  }

  /**
   * {@code size} clients whose values are made on demand by {@code generator}, with a guess at
   * each client's work that does not make its value: about the bytes of tensor data the value
   * will hold (what a pass measures of values held in memory). A pass starts the costliest clients
   * first, so that a round of clients of very different sizes does not end with one worker on a
   * large client while the others idle; the guess orders the work only, and never changes a
   * result. It must be cheap, deterministic and safe to call from several threads.
   *
   * @throws IllegalArgumentException if {@code size} is negative
   */
  public static ClientValues generate(int size, IntFunction<?> generator,
      IntToLongFunction cost) {
    Objects.requireNonNull(generator, "generator");
    Objects.requireNonNull(cost, "cost");
    if (size < 0) {
      throw new IllegalArgumentException("a population cannot have " + size + " clients");
    }
    return new ClientValues(size, null, generator, cost);
  }

  /** The number of clients. */
  public int size() {
    return size;
  }

  /** True when every value is already in memory (made by {@link #of}). */
  public boolean inMemory() {
    return list != null;
  }

  /** True when a guess at each client's work is known without making its value. */
  public boolean hasCosts() {
    return cost != null;
  }

  /**
   * The guess at client {@code index}'s work given to {@link #generate(int, IntFunction,
   * IntToLongFunction)}, at least 0.
   *
   * @throws IllegalStateException if this population was made without one
   */
  public long cost(int index) {
    Objects.checkIndex(index, size);
    if (cost == null) {
      throw new IllegalStateException("these client values were made without costs");
    }
    return Math.max(0, cost.applyAsLong(index));
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
