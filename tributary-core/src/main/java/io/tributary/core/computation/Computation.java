package io.tributary.core.computation;

import io.tributary.core.compiler.BlockPrinter;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Call;
import io.tributary.core.compiler.CheckResult;
import io.tributary.core.compiler.TypeCheckException;
import io.tributary.core.compiler.TypeChecker;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A checked, closed computation of function type: a federated computation built with
 * {@link Federated#computation}, or a local one built with {@link Federated#local}.
 *
 * <p>A computation can be called inside another one with {@link #call(Value...)}.
 */
public final class Computation {
  private final BuildingBlock block;
  private final FunctionType type;

  private Computation(BuildingBlock block, FunctionType type) {
    this.block = block;
    this.type = type;
  }

  /**
   * Wraps a closed building block of function type after type checking it.
   *
   * @throws TypeCheckException listing every problem when it is not well typed or not a function
   */
  public static Computation of(BuildingBlock block) {
    Objects.requireNonNull(block, "block");
    CheckResult check = TypeChecker.check(block);
    if (!check.ok()) {
      throw new TypeCheckException("the computation", check.diagnostics());
    }
    if (!(check.type().orElseThrow() instanceof FunctionType f)) {
      throw new IllegalArgumentException(
          "a computation has a function type, but this block has type " + check.type().get());
    }
    return new Computation(block, f);
  }

  /** The computation's type, such as {@code ({float32}@CLIENTS -> float32@SERVER)}. */
  public FunctionType type() {
    return type;
  }

  /** The computation's building block (a lambda or a local computation). */
  public BuildingBlock block() {
    return block;
  }

  /**
   * Calls this computation from inside another one being defined.
   *
   * <p>No arguments for a computation without a parameter; one argument for one parameter;
   * several arguments become the struct parameter, in order. A struct of placed values is zipped
   * when the parameter is a placed struct.
   *
   * @throws DefinitionException when the argument does not fit the parameter
   */
  public Value call(Value... args) {
    String operation = "call of " + type;
    if (type.parameter().isEmpty()) {
      if (args.length != 0) {
        throw new DefinitionException(operation, "the computation takes no argument",
            "no argument", Values.tuple(args).type().compact(), CallSites.find());
      }
      return Intrinsics.bindCall(Call.withoutArgument(block), type.result(), List.of(), "call");
    }
    if (args.length == 0) {
      throw new DefinitionException(operation, "the computation needs an argument",
          type.parameter().get().compact(), "no argument", CallSites.find());
    }
    Value arg = args.length == 1 ? args[0] : Values.tuple(args);
    Type param = type.parameter().get();
    if (param instanceof FederatedType) {
      arg = Intrinsics.zipIfStruct(arg);
    }
    arg = namedLike(param, arg);
    if (!Types.isAssignable(param, arg.type())) {
      throw new DefinitionException(operation, "the argument does not fit the parameter",
          param.compact(), arg.type().compact(), CallSites.find());
    }
    return Intrinsics.bindCall(Call.of(block, arg.block()), type.result(), List.of(arg), "call");
  }

  /**
   * Several arguments given in order for a computation whose parameters have names (made with
   * {@code Federated.computation(List<Param>, ...)}): the argument struct takes the parameters'
   * names, so that the body's selections by name find them when it runs.
   */
  private static Value namedLike(Type param, Value arg) {
    if (!(param instanceof StructType p) || !(arg.type() instanceof StructType a)
        || p.size() != a.size() || a.elements().stream().anyMatch(e -> e.name().isPresent())
        || p.elements().stream().anyMatch(e -> e.name().isEmpty())) {
      return arg;
    }
    List<Optional<String>> names = new ArrayList<>();
    List<Value> parts = new ArrayList<>();
    for (int i = 0; i < p.size(); i++) {
      names.add(p.elements().get(i).name());
      parts.add(arg.get(i));
    }
    return Values.struct(names, parts);
  }

  /** This computation as a function value, to pass to an intrinsic such as federated_map. */
  Value asValue() {
    return new Value(block, type, null);
  }

  /** The computation on one line, such as {@code (readings -> federated_mean(readings))}. */
  public String print() {
    return BlockPrinter.print(block);
  }

  /** The computation with one block local per line. */
  public String format() {
    return BlockPrinter.format(block);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Computation c && c.block.equals(block);
  }

  @Override
  public int hashCode() {
    return block.hashCode();
  }

  @Override
  public String toString() {
    return print() + ": " + type;
  }
}
