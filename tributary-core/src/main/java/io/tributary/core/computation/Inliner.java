package io.tributary.core.computation;

import io.tributary.core.compiler.Block;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Call;
import io.tributary.core.compiler.Data;
import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Literal;
import io.tributary.core.compiler.LocalComputation;
import io.tributary.core.compiler.PlacementLiteral;
import io.tributary.core.compiler.Reference;
import io.tributary.core.compiler.Selection;
import io.tributary.core.compiler.Struct;
import java.util.ArrayList;
import java.util.List;

/**
 * Folds traced locals that are used exactly once back into their single use, so that simple
 * computations print as {@code (x -> federated_mean(x))} rather than as a block.
 *
 * <p>A local used twice or more stays a local (it is computed once); a local used inside a
 * nested lambda stays too, since inlining there could compute it many times.
 */
final class Inliner {
  private Inliner() {}

  static BuildingBlock inlineSingleUse(List<Block.Local> locals, BuildingBlock result) {
    List<Block.Local> kept = new ArrayList<>(locals);
    BuildingBlock body = result;
    for (int i = kept.size() - 1; i >= 0; i--) {
      Block.Local local = kept.get(i);
      int uses = uses(body, local.name(), false);
      for (int j = i + 1; j < kept.size(); j++) {
        uses += uses(kept.get(j).value(), local.name(), false);
      }
      if (uses == 1) {
        body = replace(body, local.name(), local.value());
        for (int j = i + 1; j < kept.size(); j++) {
          Block.Local later = kept.get(j);
          kept.set(j, new Block.Local(later.name(), replace(later.value(), local.name(),
              local.value())));
        }
        kept.remove(i);
      }
    }
    return kept.isEmpty() ? body : new Block(kept, body);
  }

  /** Free uses of {@code name}; a use under a lambda counts as two so it is never inlined. */
  private static int uses(BuildingBlock b, String name, boolean underLambda) {
    return switch (b) {
      case Reference r -> r.name().equals(name) ? (underLambda ? 2 : 1) : 0;
      case Selection s -> uses(s.source(), name, underLambda);
      case Struct s -> s.elements().stream().mapToInt(e -> uses(e.value(), name, underLambda))
          .sum();
      case Call c -> uses(c.function(), name, underLambda)
          + c.argument().map(a -> uses(a, name, underLambda)).orElse(0);
      case Lambda l -> l.parameterName().equals(name) ? 0 : uses(l.result(), name, true);
      case Block k -> {
        int n = 0;
        for (Block.Local local : k.locals()) {
          n += uses(local.value(), name, underLambda);
          if (local.name().equals(name)) {
            yield n;
          }
        }
        yield n + uses(k.result(), name, underLambda);
      }
      case Intrinsic i -> 0;
      case Data d -> 0;
      case PlacementLiteral p -> 0;
      case Literal l -> 0;
      case LocalComputation lc -> 0;
    };
  }

  /** Replaces free uses of {@code name}; only called where no use sits under a lambda. */
  private static BuildingBlock replace(BuildingBlock b, String name, BuildingBlock with) {
    return switch (b) {
      case Reference r -> r.name().equals(name) ? with : r;
      case Selection s -> new Selection(replace(s.source(), name, with), s.key());
      case Struct s -> new Struct(s.elements().stream()
          .map(e -> new Struct.Element(e.name(), replace(e.value(), name, with))).toList());
      case Call c -> new Call(replace(c.function(), name, with),
          c.argument().map(a -> replace(a, name, with)));
      case Lambda l -> l;
      case Block k -> {
        List<Block.Local> out = new ArrayList<>();
        boolean shadowed = false;
        for (Block.Local local : k.locals()) {
          out.add(shadowed ? local
              : new Block.Local(local.name(), replace(local.value(), name, with)));
          shadowed |= local.name().equals(name);
        }
        yield new Block(out, shadowed ? k.result() : replace(k.result(), name, with));
      }
      case Intrinsic i -> i;
      case Data d -> d;
      case PlacementLiteral p -> p;
      case Literal l -> l;
      case LocalComputation lc -> lc;
    };
  }
}
