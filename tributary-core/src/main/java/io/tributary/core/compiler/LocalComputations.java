package io.tributary.core.compiler;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/** Operations over the local computations inside a building block. */
public final class LocalComputations {
  private LocalComputations() {}

  /**
   * Rebuilds {@code block} with every local computation replaced by {@code replacement}'s result,
   * such as binding each {@link GraphComputation} to a runnable {@link JavaFunction}.
   *
   * <p>The replacement must keep each computation's type, so the result type checks whenever
   * the input did.
   *
   * @throws IllegalArgumentException if the replacement returns null or changes a type
   */
  public static BuildingBlock replaceAll(
      BuildingBlock block, UnaryOperator<LocalComputation> replacement) {
    Objects.requireNonNull(replacement, "replacement");
    return switch (block) {
      case Reference r -> r;
      case Selection s -> new Selection(replaceAll(s.source(), replacement), s.key());
      case Struct s -> {
        List<Struct.Element> elements = new ArrayList<>(s.elements().size());
        for (Struct.Element e : s.elements()) {
          elements.add(new Struct.Element(e.name(), replaceAll(e.value(), replacement)));
        }
        yield new Struct(elements);
      }
      case Call c -> new Call(replaceAll(c.function(), replacement),
          c.argument().map(a -> replaceAll(a, replacement)));
      case Lambda l ->
          new Lambda(l.parameterName(), l.parameterType(), replaceAll(l.result(), replacement));
      case Block b -> {
        List<Block.Local> locals = new ArrayList<>(b.locals().size());
        for (Block.Local local : b.locals()) {
          locals.add(new Block.Local(local.name(), replaceAll(local.value(), replacement)));
        }
        yield new Block(locals, replaceAll(b.result(), replacement));
      }
      case Intrinsic i -> i;
      case Data d -> d;
      case PlacementLiteral p -> p;
      case Literal l -> l;
      case LocalComputation lc -> {
        LocalComputation out = replacement.apply(lc);
        if (out == null) {
          throw new IllegalArgumentException("the replacement for " + lc + " is null");
        }
        if (!out.type().equals(lc.type())) {
          throw new IllegalArgumentException("the replacement for " + lc + " has type "
              + out.type() + " instead of " + lc.type());
        }
        yield out;
      }
    };
  }

  /** Every local computation inside {@code block}, in printing order (duplicates kept). */
  public static List<LocalComputation> all(BuildingBlock block) {
    List<LocalComputation> out = new ArrayList<>();
    replaceAll(block, lc -> {
      out.add(lc);
      return lc;
    });
    return out;
  }
}
