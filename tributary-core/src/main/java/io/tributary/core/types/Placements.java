package io.tributary.core.types;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * An immutable set of known placements, looked up by label (compact notation) or uri (proto).
 *
 * <p>{@link #standard()} knows {@code CLIENTS}, {@code EDGES} and {@code SERVER};
 * {@link #with(Placement)} gives a registry with one more tier.
 */
public final class Placements {
  private static final Placements STANDARD =
      new Placements(List.of(Placement.CLIENTS, Placement.EDGES, Placement.SERVER));

  private final List<Placement> all;

  private Placements(List<Placement> all) {
    List<Placement> sorted = new ArrayList<>(all);
    sorted.sort(Comparator.comparingInt(Placement::tier));
    this.all = List.copyOf(sorted);
  }

  /** CLIENTS, EDGES and SERVER. */
  public static Placements standard() {
    return STANDARD;
  }

  /** A registry with {@code extra} added; its label and uri must be new. */
  public Placements with(Placement extra) {
    for (Placement p : all) {
      if (p.label().equals(extra.label()) || p.uri().equals(extra.uri())) {
        throw new IllegalArgumentException(
            "placement " + extra + " clashes with the registered placement " + p);
      }
    }
    List<Placement> more = new ArrayList<>(all);
    more.add(extra);
    return new Placements(more);
  }

  /** All placements, ordered by tier from the clients up. */
  public List<Placement> all() {
    return all;
  }

  public Optional<Placement> byLabel(String label) {
    for (Placement p : all) {
      if (p.label().equals(label)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  public Optional<Placement> byUri(String uri) {
    for (Placement p : all) {
      if (p.uri().equals(uri)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** The labels, for error messages. */
  public String labels() {
    return String.join(", ", all.stream().map(Placement::label).toList());
  }
}
