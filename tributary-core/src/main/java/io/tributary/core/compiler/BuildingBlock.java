package io.tributary.core.compiler;

/**
 * A node of a federated computation.
 *
 * <p>Nodes are immutable records compared structurally. Only the nodes that introduce a type of
 * their own carry one ({@link Intrinsic}, {@link Data}, {@link LocalComputation} and the
 * parameter of a {@link Lambda}); the type of every other node is inferred by
 * {@link TypeChecker}. The {@code toString} of a node is its compact printed form.
 */
public sealed interface BuildingBlock
    permits Reference,
        Selection,
        Struct,
        Call,
        Lambda,
        Block,
        Intrinsic,
        Data,
        PlacementLiteral,
        Literal,
        LocalComputation {}
