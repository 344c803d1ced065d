package io.tributary.core.types;

import java.util.Objects;

/**
 * A group of participants that hosts federated values, such as {@code CLIENTS} or {@code SERVER}.
 *
 * <p>A placement is a value, not an enum constant: the standard tiers are {@link #CLIENTS},
 * {@link #EDGES} and {@link #SERVER}, and a further one is one more {@code Placement} registered
 * in {@link Placements}; nothing that switches over placements needs rewriting.
 *
 * @param uri the identifier used on the wire ({@code "clients"}, {@code "edges"}, {@code
 *     "server"})
 * @param label the name in compact notation ({@code CLIENTS}, {@code EDGES}, {@code SERVER})
 * @param tier the distance from the clients: 0 for clients, larger towards the server
 * @param singleton whether the placement is a single logical participant (its values are held
 *     once; a zip there gives an all-equal value)
 */
public record Placement(String uri, String label, int tier, boolean singleton) {
  /** The client devices, tier 0; each may hold its own value. */
  public static final Placement CLIENTS = new Placement("clients", "CLIENTS", 0, false);

  /**
   * The edges, tier 1: intermediate aggregators between the clients and the server (a regional
   * hub, a carrier's edge, a Spark executor). Every client belongs to exactly one edge; each edge
   * may hold its own value. federated-language has no such placement and cannot read it.
   */
  public static final Placement EDGES = new Placement("edges", "EDGES", 1, false);

  /** The server, tier 2: one logical participant above the edges. */
  public static final Placement SERVER = new Placement("server", "SERVER", 2, true);

  public Placement {
    Objects.requireNonNull(uri, "uri");
    Names.requireIdentifier(label);
    if (uri.isEmpty()) {
      throw new IllegalArgumentException("placement uri is empty");
    }
    if (tier < 0) {
      throw new IllegalArgumentException("placement tier " + tier + " is negative");
    }
  }

  /** True when this placement is closer to the clients than {@code other}. */
  public boolean isBelow(Placement other) {
    return tier < other.tier;
  }

  @Override
  public String toString() {
    return label;
  }
}
