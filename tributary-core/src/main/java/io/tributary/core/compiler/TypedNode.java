package io.tributary.core.compiler;

import io.tributary.core.types.Type;
import java.util.Optional;

/**
 * A node as seen by a {@link TypeChecker} listener: the node, its path and its inferred type.
 *
 * @param node the node
 * @param path its path, in the format of {@link Diagnostic#path()}
 * @param type its type, empty when it could not be inferred
 */
public record TypedNode(BuildingBlock node, String path, Optional<Type> type) {}
