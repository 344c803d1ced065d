package io.tributary.core.types;

/** The type of placement literals such as {@code CLIENTS}; printed {@code placement}. */
public record PlacementType() implements Type {
  @Override
  public String toString() {
    return compact();
  }
}
