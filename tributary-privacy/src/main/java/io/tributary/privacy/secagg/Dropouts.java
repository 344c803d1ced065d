package io.tributary.privacy.secagg;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which simulated clients drop out, and before which stage: a client that drops before a stage
 * sends nothing in it or any later stage.
 *
 * @param before the clients that drop out before each stage
 */
public record Dropouts(Map<SecAggStage, Set<Integer>> before) {
  public Dropouts {
    EnumMap<SecAggStage, Set<Integer>> copy = new EnumMap<>(SecAggStage.class);
    before.forEach((stage, clients) -> copy.put(stage, Set.copyOf(clients)));
    before = java.util.Collections.unmodifiableMap(copy);
  }

  /** Nobody drops out. */
  public static Dropouts none() {
    return new Dropouts(Map.of());
  }

  /** A copy where {@code clients} also drop out before {@code stage}. */
  public Dropouts dropBefore(SecAggStage stage, int... clients) {
    EnumMap<SecAggStage, Set<Integer>> copy = new EnumMap<>(SecAggStage.class);
    copy.putAll(before);
    Set<Integer> set = new TreeSet<>(copy.getOrDefault(stage, Set.of()));
    for (int c : clients) {
      set.add(c);
    }
    copy.put(stage, set);
    return new Dropouts(copy);
  }

  /** Whether {@code client} is still there at {@code stage}. */
  public boolean present(int client, SecAggStage stage) {
    for (SecAggStage s : SecAggStage.values()) {
      if (s.compareTo(stage) > 0) {
        break;
      }
      if (before.getOrDefault(s, Set.of()).contains(client)) {
        return false;
      }
    }
    return true;
  }
}
