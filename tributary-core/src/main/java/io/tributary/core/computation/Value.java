package io.tributary.core.computation;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.IntrinsicCatalogue;
import io.tributary.core.compiler.IntrinsicDef;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Reference;
import io.tributary.core.compiler.Selection;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import java.util.Objects;
import java.util.Optional;

/**
 * A symbolic value inside a computation being defined: an expression and its type.
 *
 * <p>Values are what the parameters of a {@link Federated#computation} lambda are, and what
 * {@link Intrinsics} take and return. They hold no data.
 */
public final class Value {
  private final BuildingBlock block;
  private final Type type;
  private final Tracer tracer;

  Value(BuildingBlock block, Type type, Tracer tracer) {
    this.block = Objects.requireNonNull(block, "block");
    this.type = Objects.requireNonNull(type, "type");
    this.tracer = tracer;
  }

  /** The value's type. */
  public Type type() {
    return type;
  }

  /** The expression that computes the value. */
  public BuildingBlock block() {
    return block;
  }

  Optional<Tracer> tracer() {
    return Optional.ofNullable(tracer);
  }

  /**
   * The element named {@code name} of a struct; for a placed struct such as
   * {@code {<a=T,b=U>}@CLIENTS}, the placed element {@code {T}@CLIENTS}, selected member by
   * member as federated-language does.
   */
  public Value get(String name) {
    return select(new Selection.ByName(name), "." + name);
  }

  /** The element at {@code index} of a struct, or of a placed struct member by member. */
  public Value get(int index) {
    return select(new Selection.ByIndex(index), "[" + index + "]");
  }

  private Value select(Selection.Key key, String shown) {
    if (type instanceof FederatedType f && f.member() instanceof StructType member) {
      Type element = elementType(member, key, shown);
      Lambda pick = Lambda.of("x", member, new Selection(new Reference("x"), key));
      IntrinsicDef def = f.placement().equals(Placement.SERVER)
          ? IntrinsicCatalogue.FEDERATED_APPLY
          : f.placement().equals(Placement.EDGES) ? IntrinsicCatalogue.FEDERATED_MAP_AT_EDGES
          : f.allEqual() ? IntrinsicCatalogue.FEDERATED_MAP_ALL_EQUAL
              : IntrinsicCatalogue.FEDERATED_MAP;
      Value fn = new Value(pick, io.tributary.core.types.FunctionType.of(member, element), null);
      return Intrinsics.apply(def, Values.tuple(fn, this));
    }
    if (!(type instanceof StructType st)) {
      throw new DefinitionException("selection " + shown, "selection from a value that is not a"
          + " struct", "a struct", type.compact(), CallSites.find());
    }
    Type element = elementType(st, key, shown);
    return new Value(new Selection(block, key), element, tracer);
  }

  private static Type elementType(StructType st, Selection.Key key, String shown) {
    int index = switch (key) {
      case Selection.ByName n -> st.indexOf(n.name());
      case Selection.ByIndex i -> i.index() < st.size() ? i.index() : -1;
    };
    if (index < 0) {
      throw new DefinitionException("selection " + shown, "no such element",
          "a struct with element " + shown.substring(shown.startsWith(".") ? 1 : 0),
          st.compact(), CallSites.find());
    }
    return st.get(index);
  }

  /** The value's expression and type, such as {@code readings: {float32}@CLIENTS}. */
  @Override
  public String toString() {
    return block + ": " + type;
  }
}
