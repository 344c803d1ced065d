/**
 * The building blocks of federated computations, the intrinsic catalogue, the type checker and
 * the printer.
 *
 * <p>A computation is an immutable tree of {@link io.tributary.core.compiler.BuildingBlock}
 * records. {@link io.tributary.core.compiler.TypeChecker} infers the type of every node and
 * reports every problem it finds, each with its path in the tree;
 * {@link io.tributary.core.compiler.IntrinsicCatalogue} holds the federated operators and their
 * template signatures; {@link io.tributary.core.compiler.BlockPrinter} prints a tree as
 * {@code (readings -> federated_mean(readings))}.
 */
package io.tributary.core.compiler;
