package io.tributary.learning.rounds;

import io.tributary.runtime.ClientValues;
import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;

/**
 * The clients one invocation runs over: the values CLIENTS is bound to, in order, and a name for
 * each (what failure reasons call the client).
 *
 * <p>A cohort either holds its values ({@link #Cohort(String, List, List)}) or makes each when it
 * is asked for ({@link #generated}), so that a round of a million simulated clients holds none of
 * their data.
 *
 * @param name what the cohort is, such as {@code fit} or {@code test}
 * @param clients the client values (datasets in a simulation, client ids on a server)
 * @param names one name per client, such as {@code client 7} or {@code client 3 (client-12)}
 */
public record Cohort(String name, List<?> clients, List<String> names) {
  /**
   * Copies the lists (a generated cohort's are kept: they hold nothing).
   *
   * @throws IllegalArgumentException when there is not one name per client
   */
  public Cohort {
    clients = clients instanceof OnDemand<?> ? clients : List.copyOf(clients);
    names = names instanceof OnDemand<?> ? names : List.copyOf(names);
    if (clients.size() != names.size()) {
      throw new IllegalArgumentException(clients.size() + " clients but " + names.size()
          + " names");
    }
  }

  /**
   * A cohort of {@code size} clients whose values and names are made when asked for; both
   * functions must be deterministic and safe to call from several threads.
   *
   * @throws IllegalArgumentException if {@code size} is negative
   */
  public static Cohort generated(String name, int size, IntFunction<?> client,
      IntFunction<String> clientName) {
    if (size < 0) {
      throw new IllegalArgumentException("a cohort cannot have " + size + " clients");
    }
    return new Cohort(name, new OnDemand<>(size, client, null),
        new OnDemand<>(size, clientName, null));
  }

  /**
   * As {@link #generated(String, int, IntFunction, IntFunction)}, with a guess at each client's
   * work that does not make its value (about the bytes of tensor data it will hold, such as its
   * examples times their size): the runtime starts the costliest clients first, as it does for
   * held values ({@link ClientValues#generate(int, IntFunction, IntToLongFunction)}). The guess
   * orders the work only; results do not depend on it.
   *
   * @throws IllegalArgumentException if {@code size} is negative
   */
  public static Cohort generated(String name, int size, IntFunction<?> client,
      IntFunction<String> clientName, IntToLongFunction cost) {
    if (size < 0) {
      throw new IllegalArgumentException("a cohort cannot have " + size + " clients");
    }
    return new Cohort(name, new OnDemand<>(size, client, Objects.requireNonNull(cost, "cost")),
        new OnDemand<>(size, clientName, null));
  }

  /** The number of clients. */
  public int size() {
    return clients.size();
  }

  /** Whether the values are made when asked for rather than held. */
  public boolean isGenerated() {
    return clients instanceof OnDemand<?>;
  }

  /**
   * The value to bind CLIENTS to: the held list, or {@link ClientValues} that make each client's
   * value when the runtime reaches it.
   */
  public Object argument() {
    if (clients instanceof OnDemand<?> d) {
      return d.cost == null ? ClientValues.generate(d.size(), d::get)
          : ClientValues.generate(d.size(), d::get, d.cost);
    }
    return clients;
  }

  /** A list whose element {@code i} is made by a function each time it is read. */
  private static final class OnDemand<T> extends AbstractList<T> implements RandomAccess {
    private final int size;
    private final IntFunction<? extends T> element;
    /** The guess at each element's work, or null. */
    private final IntToLongFunction cost;

    OnDemand(int size, IntFunction<? extends T> element, IntToLongFunction cost) {
      this.size = size;
      this.element = Objects.requireNonNull(element, "element");
      this.cost = cost;
    }

    @Override
    public T get(int index) {
      Objects.checkIndex(index, size);
      return element.apply(index);
    }

    @Override
    public int size() {
      return size;
    }

    // A list's equality, hash and text read every element, which here would make every client's
    // value: two generated cohorts are equal only when they are the same.
    @Override
    public boolean equals(Object o) {
      return o == this;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(this);
    }

    @Override
    public String toString() {
      return "[" + size + " values made on demand]";
    }
  }
}
