package io.tributary.core.types;

import java.util.Objects;

/**
 * A value hosted by the members of a placement: {@code T@G} when all members hold the same value,
 * {@code {T}@G} when each member may hold its own.
 *
 * @param member the type of the value each member holds; it may not contain a federated,
 *     function or placement type
 * @param placement where the value lives
 * @param allEqual whether all members hold equal values. At a singleton placement such as SERVER
 *     the one member's value is trivially all-equal, but {@code {T}@SERVER} is still a type of its
 *     own, as in federated-language: a {@code T@SERVER} value is assignable to it, not the
 *     reverse, so the intrinsics that want {@code T@SERVER} (broadcast, apply, select) refuse it.
 */
public record FederatedType(Type member, Placement placement, boolean allEqual) implements Type {
  public FederatedType {
    Objects.requireNonNull(member, "member");
    Objects.requireNonNull(placement, "placement");
    Nesting.checkFederatedMember(member, placement, allEqual);
  }

  /** {@code T@SERVER}. */
  public static FederatedType atServer(Type member) {
    return new FederatedType(member, Placement.SERVER, true);
  }

  /** {@code {T}@CLIENTS}: each client holds its own value. */
  public static FederatedType atClients(Type member) {
    return new FederatedType(member, Placement.CLIENTS, false);
  }

  /** {@code T@CLIENTS}: every client holds the same value. */
  public static FederatedType atClientsAllEqual(Type member) {
    return new FederatedType(member, Placement.CLIENTS, true);
  }

  /** {@code {T}@EDGES}: each edge holds its own value. */
  public static FederatedType atEdges(Type member) {
    return new FederatedType(member, Placement.EDGES, false);
  }

  /** {@code T@EDGES}: every edge holds the same value (a value broadcast from the server). */
  public static FederatedType atEdgesAllEqual(Type member) {
    return new FederatedType(member, Placement.EDGES, true);
  }

  @Override
  public String toString() {
    return compact();
  }
}
