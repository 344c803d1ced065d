/**
 * The type system of the Federated Core: the {@link io.tributary.core.types.Type} kinds, their
 * compact notation ({@link io.tributary.core.types.Types#parse} and
 * {@link io.tributary.core.types.Types#print}), assignability and equivalence, and the nesting
 * rules every type obeys.
 *
 * <p>Types are immutable records compared structurally; a type that breaks a nesting rule cannot
 * be constructed. Placements are values ({@link io.tributary.core.types.Placement}) rather than an
 * enum, so a tier such as intermediate aggregators can be added by registering one more value in
 * {@link io.tributary.core.types.Placements}.
 */
package io.tributary.core.types;
