package io.tributary.learning.rounds;

import java.util.List;

/**
 * The clients one invocation runs over: the values CLIENTS is bound to, in order, and a name for
 * each (what failure reasons call the client).
 *
 * @param name what the cohort is, such as {@code fit} or {@code test}
 * @param clients the client values (datasets in a simulation, client ids on a server)
 * @param names one name per client, such as {@code client 7} or {@code client 3 (client-12)}
 */
public record Cohort(String name, List<?> clients, List<String> names) {
  /**
   * Copies the lists.
   *
   * @throws IllegalArgumentException when there is not one name per client
   */
  public Cohort {
    clients = List.copyOf(clients);
    names = List.copyOf(names);
    if (clients.size() != names.size()) {
      throw new IllegalArgumentException(clients.size() + " clients but " + names.size()
          + " names");
    }
  }

  /** The number of clients. */
  public int size() {
    return clients.size();
  }
}
