package io.tributary.runtime.executor.internal.local;

import io.tributary.core.compiler.Block;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Call;
import io.tributary.core.compiler.Data;
import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Literal;
import io.tributary.core.compiler.PlacementLiteral;
import io.tributary.core.compiler.Reference;
import io.tributary.core.compiler.Selection;
import io.tributary.core.compiler.Struct;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.SequenceType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.ValueChecker;
import io.tributary.runtime.ValueMismatchException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Evaluates local computations synchronously on the calling thread: lambdas, blocks, structs,
 * selections, literals, Java functions and the local intrinsics ({@code sequence_map},
 * {@code sequence_reduce}, {@code sequence_sum}, {@code generic_plus}, {@code generic_divide},
 * {@code generic_multiply},
 * {@code generic_zero}).
 *
 * <p>Stateless apart from the data bindings, so one evaluator serves every thread.
 */
public final class LocalEvaluator {
  private final Map<String, Object> data;

  /** An evaluator whose {@code data} building blocks name these values. */
  public LocalEvaluator(Map<String, Object> data) {
    this.data = Map.copyOf(data);
  }

  /** Evaluates a local building block with the names in {@code env} bound. */
  public Object evaluate(BuildingBlock block, Env env) {
    return switch (block) {
      case Reference r -> env.lookup(r.name()).orElseThrow(() -> new LocalComputationException(
          "reference to '" + r.name() + "', which is not bound to a local value"));
      case Selection s -> select(evaluate(s.source(), env), s.key());
      case Struct s -> {
        List<Optional<String>> names = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (Struct.Element e : s.elements()) {
          names.add(e.name());
          values.add(evaluate(e.value(), env));
        }
        yield StructValue.of(names, values);
      }
      case Call c -> {
        Object fn = evaluate(c.function(), env);
        Object arg = c.argument().isPresent() ? evaluate(c.argument().get(), env) : null;
        if (!(fn instanceof LocalFn f)) {
          throw new LocalComputationException("call of " + ValueChecker.describe(fn)
              + ", which is not a local function");
        }
        yield apply(f, arg);
      }
      case Lambda l -> new LocalFn.Closure(l, env);
      case Block b -> {
        Env inner = env;
        for (Block.Local local : b.locals()) {
          inner = inner.bind(local.name(), evaluate(local.value(), inner));
        }
        yield evaluate(b.result(), inner);
      }
      case Intrinsic i -> intrinsicValue(i);
      case Data d -> data(d);
      case Literal l -> l.value();
      case JavaFunction j -> new LocalFn.Java(j);
      case GraphComputation g -> throw new LocalComputationException("graph:" + g.name()
          + " is a graph computation that has not been bound; bind the computation first"
          + " (io.tributary.graph.local.GraphBinder.bindAll)");
      case PlacementLiteral p -> throw new LocalComputationException(
          "the placement " + p.placement() + " is not a local value");
    };
  }

  /** The value bound to a {@code Data} URI, unchecked (its type may be placed). */
  public Object dataValue(Data d) {
    Object v = data.get(d.uri());
    if (v == null) {
      throw new ValueMismatchException("no data is bound to the URI '" + d.uri()
          + "'; bind it with RuntimeOptions.withData");
    }
    return v;
  }

  private Object data(Data d) {
    Object v = dataValue(d);
    ValueChecker.check(d.type(), v, "data '" + d.uri() + "'");
    return v;
  }

  private Object intrinsicValue(Intrinsic i) {
    if (i.uri().equals("generic_zero")) {
      return TensorOps.zeros(i.type());
    }
    return new LocalFn.Intrinsic(i.uri(), i.type());
  }

  static Object select(Object source, Selection.Key key) {
    if (!(source instanceof StructValue s)) {
      throw new LocalComputationException("selection from " + ValueChecker.describe(source)
          + ", which is not a struct");
    }
    return switch (key) {
      case Selection.ByIndex i -> s.get(i.index());
      case Selection.ByName n -> s.get(n.name());
    };
  }

  /**
   * Applies a local function.
   *
   * @param arg the argument, or null for a function without a parameter
   * @throws LocalFunctionFailure when a Java function throws or returns a misfit, or a local
   *     intrinsic gets values it cannot combine
   */
  public Object apply(LocalFn fn, Object arg) {
    return switch (fn) {
      case LocalFn.Closure c -> {
        Lambda l = c.lambda();
        Env env = l.parameterType().isPresent() ? c.env().bind(l.parameterName(), arg) : c.env();
        yield evaluate(l.result(), env);
      }
      case LocalFn.Java j -> applyJava(j, arg);
      case LocalFn.Intrinsic i -> applyIntrinsic(i, arg);
    };
  }

  private static Object applyJava(LocalFn.Java j, Object arg) {
    JavaFunction f = j.function();
    Object result;
    try {
      result = f.body().apply(arg);
    } catch (RuntimeException e) {
      // The body is user code: any unchecked exception it throws is this function's failure.
      throw new LocalFunctionFailure(j.name(), ClientFailure.Kind.THREW,
          e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()),
          e);
    }
    Optional<String> bad = ValueChecker.problem(f.type().result(), result, "");
    if (bad.isPresent()) {
      throw new LocalFunctionFailure(j.name(), ClientFailure.Kind.BAD_VALUE,
          "its result does not fit " + f.type().result() + ": " + bad.get(), null);
    }
    return result;
  }

  private Object applyIntrinsic(LocalFn.Intrinsic i, Object arg) {
    try {
      return switch (i.uri()) {
        case "sequence_map" -> {
          StructValue a = (StructValue) arg;
          LocalFn f = (LocalFn) a.get(0);
          List<Object> out = new ArrayList<>();
          for (Object x : (Iterable<?>) a.get(1)) {
            out.add(apply(f, x));
          }
          yield out;
        }
        case "sequence_reduce" -> {
          StructValue a = (StructValue) arg;
          Object acc = a.get(1);
          LocalFn op = (LocalFn) a.get(2);
          for (Object x : (Iterable<?>) a.get(0)) {
            acc = apply(op, StructValue.of(acc, x));
          }
          yield acc;
        }
        case "sequence_sum" -> sequenceSum(i, (Iterable<?>) arg);
        case "generic_plus" -> TensorOps.plus(((StructValue) arg).get(0),
            ((StructValue) arg).get(1));
        case "generic_divide" -> TensorOps.divide(((StructValue) arg).get(0),
            ((StructValue) arg).get(1), ((FunctionType) i.type()).result());
        case "generic_multiply" -> TensorOps.multiply(((StructValue) arg).get(0),
            ((StructValue) arg).get(1));
        default -> throw new LocalComputationException(
            i.uri() + " is not a local intrinsic; it cannot run on one participant");
      };
    } catch (IllegalArgumentException e) {
      throw new LocalFunctionFailure(i.uri(), ClientFailure.Kind.BAD_VALUE, e.getMessage(), e);
    }
  }

  private static Object sequenceSum(LocalFn.Intrinsic i, Iterable<?> sequence) {
    Type element = ((SequenceType) ((FunctionType) i.type()).parameter().orElseThrow()).element();
    LinearAccumulator acc = LinearAccumulator.forType(element);
    long index = 0;
    for (Object x : sequence) {
      Optional<String> bad = ValueChecker.problem(element, x, "");
      if (bad.isPresent()) {
        throw new IllegalArgumentException("sequence element " + index + " does not fit "
            + element + ": " + bad.get());
      }
      acc.check(x);
      acc.add(x, 1.0);
      index++;
    }
    return acc.result(LinearAccumulator.Mode.SUM);
  }
}
