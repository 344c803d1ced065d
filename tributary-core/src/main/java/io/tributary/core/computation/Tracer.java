package io.tributary.core.computation;

import io.tributary.core.compiler.Block;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.types.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Records the operations of one computation body while its Java lambda runs, as block locals.
 *
 * <p>One tracer exists per {@link Federated#computation} call and is reachable only through the
 * values it produced, so no global state is involved.
 */
final class Tracer {
  private final List<Block.Local> locals = new ArrayList<>();
  private final Set<String> taken = new HashSet<>();
  private int counter;

  Tracer(Set<String> reserved) {
    taken.addAll(reserved);
  }

  /** Records {@code expr} as a new local and returns a value referring to it. */
  Value bind(BuildingBlock expr, Type type, String hint) {
    String name;
    do {
      name = hint + counter++;
    } while (!taken.add(name));
    locals.add(new Block.Local(name, expr));
    return new Value(new io.tributary.core.compiler.Reference(name), type, this);
  }

  /** The body: the recorded locals (single-use ones inlined) followed by {@code result}. */
  BuildingBlock finish(BuildingBlock result) {
    return Inliner.inlineSingleUse(locals, result);
  }
}
