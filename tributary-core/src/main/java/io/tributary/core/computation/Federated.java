package io.tributary.core.computation;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.CheckResult;
import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Literal;
import io.tributary.core.compiler.LocalFunction;
import io.tributary.core.compiler.Reference;
import io.tributary.core.compiler.Selection;
import io.tributary.core.compiler.TypeChecker;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Defines computations from Java lambdas, the job TFF's {@code @federated_computation}
 * decorator does by tracing.
 */
public final class Federated {
  /** The parameter name used when none is given. */
  public static final String DEFAULT_PARAMETER = "arg";

  private Federated() {}

  /**
   * A computation of one parameter.
   *
   * <pre>{@code
   * Computation avg = Federated.computation(Types.parse("{float32}@CLIENTS"),
   *     readings -> Intrinsics.federatedMean(readings));
   * }</pre>
   */
  public static Computation computation(Type parameter, Function<Value, Value> body) {
    return computation(Param.of(DEFAULT_PARAMETER, parameter), body);
  }

  /** A computation of one named parameter; the name shows in the printed computation. */
  public static Computation computation(Param parameter, Function<Value, Value> body) {
    Tracer tracer = new Tracer(Set.of(parameter.name()));
    Value arg = new Value(new Reference(parameter.name()), parameter.type(), tracer);
    return finish(parameter, tracer, body.apply(arg));
  }

  /** A computation of two parameters, which become the unnamed struct parameter {@code <A,B>}. */
  public static Computation computation(
      Type first, Type second, BiFunction<Value, Value, Value> body) {
    StructType param = StructType.of(first, second);
    return computation(Param.of(DEFAULT_PARAMETER, param),
        arg -> body.apply(arg.get(0), arg.get(1)));
  }

  /**
   * A computation of several named parameters, which become the struct parameter
   * {@code <name1=T1,name2=T2,...>}.
   */
  public static Computation computation(List<Param> parameters, Function<Args, Value> body) {
    List<StructType.Element> elements = new ArrayList<>();
    Map<String, Integer> positions = new HashMap<>();
    for (Param p : parameters) {
      elements.add(StructType.Element.named(p.name(), p.type()));
      if (positions.put(p.name(), positions.size()) != null) {
        throw new IllegalArgumentException("two parameters named '" + p.name() + "'");
      }
    }
    StructType param = new StructType(elements);
    Set<String> reserved = Set.of(DEFAULT_PARAMETER);
    Tracer tracer = new Tracer(reserved);
    Reference ref = new Reference(DEFAULT_PARAMETER);
    List<Value> values = new ArrayList<>();
    for (Param p : parameters) {
      values.add(new Value(Selection.byName(ref, p.name()), p.type(), tracer));
    }
    Value result = body.apply(new Args(values, positions));
    return finish(Param.of(DEFAULT_PARAMETER, param), tracer, result);
  }

  /** A computation without a parameter, of type {@code ( -> T)}. */
  public static Computation computation(Supplier<Value> body) {
    Tracer tracer = new Tracer(Set.of());
    Value result = body.get();
    BuildingBlock resultBlock = closeOver(tracer, result);
    return check(Lambda.noParameter(resultBlock));
  }

  private static Computation finish(Param parameter, Tracer tracer, Value result) {
    BuildingBlock body = closeOver(tracer, result);
    return check(Lambda.of(parameter.name(), parameter.type(), body));
  }

  private static BuildingBlock closeOver(Tracer tracer, Value result) {
    if (result == null) {
      throw new IllegalArgumentException("the computation's lambda returned null, not a Value");
    }
    Optional<Tracer> owner = result.tracer();
    if (owner.isPresent() && owner.get() != tracer) {
      throw new DefinitionException("computation",
          "the result uses a value of an enclosing computation; pass it in as a parameter",
          "a value of this computation", result.type().compact(), CallSites.find());
    }
    return tracer.finish(result.block());
  }

  private static Computation check(Lambda lambda) {
    CheckResult check = TypeChecker.check(lambda);
    if (!check.ok()) {
      // Tracing checks every step, so this only fires on values smuggled between computations.
      throw new DefinitionException("computation", check.report().strip(), "a well-typed body",
          "see the problems listed", CallSites.find());
    }
    return Computation.of(lambda);
  }

  /**
   * A local computation implemented in Java, for use with {@code federated_map} and friends.
   *
   * @param type its function type, which may not mention placements
   */
  public static Computation local(String name, FunctionType type, LocalFunction body) {
    return Computation.of(new JavaFunction(name, type, body));
  }

  /** A local computation whose type is given in compact notation. */
  public static Computation local(String name, String type, LocalFunction body) {
    Type t = Types.parse(type);
    if (!(t instanceof FunctionType f)) {
      throw new IllegalArgumentException("a local computation needs a function type, not " + t);
    }
    return local(name, f, body);
  }

  /** A constant tensor. */
  public static Value constant(Tensor value) {
    return new Value(new Literal(value), TensorType.of(value.dtype(), value.shape().dims()), null);
  }

  /** An unnamed struct {@code <a,b,...>} of values. */
  public static Value struct(Value... values) {
    return Values.tuple(values);
  }

  /**
   * A named struct {@code <k1=v1,k2=v2,...>}. The elements come in the map's order when it is a
   * {@link SequencedMap} (a {@code LinkedHashMap}, say), and sorted by name for any other map
   * (such as {@code Map.of(...)}), whose order is unspecified.
   */
  public static Value struct(Map<String, Value> values) {
    SequencedMap<String, Value> ordered =
        values instanceof SequencedMap<String, Value> s ? s : new TreeMap<>(values);
    List<Optional<String>> names = new ArrayList<>();
    for (String n : ordered.keySet()) {
      names.add(Optional.of(n));
    }
    return Values.struct(names, new ArrayList<>(ordered.values()));
  }
}
