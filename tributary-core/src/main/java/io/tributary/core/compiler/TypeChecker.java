package io.tributary.core.compiler;

import io.tributary.core.types.AbstractType;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.PlacementType;
import io.tributary.core.types.SequenceType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Infers the type of every node of a computation and reports every problem.
 *
 * <p>Checking does not stop at the first error: a node whose type cannot be inferred is treated
 * as unknown, which silences follow-on errors about it, and checking goes on with its siblings.
 * Nodes are visited in post-order (children left to right, then the node), which listeners can
 * rely on.
 *
 * <p>An inferred type may share its parts (a struct of a block local twice, of a local that is
 * such a struct, ...), so it can be exponentially larger than the computation written out. The
 * checker refuses a struct or function type whose compact notation would exceed
 * {@link #MAX_TYPE_WEIGHT} characters, weighing each shared part once per use but computing each
 * part's weight once: nothing downstream (printing, comparing, hashing) then meets a type larger
 * than that. Names echoed in paths are cut to {@link #MAX_PATH_NAME} characters, so that paths
 * grow linearly with the nesting.
 */
public final class TypeChecker {
  /** The most characters a type's compact notation may have: 1 MiB. */
  public static final long MAX_TYPE_WEIGHT = 1L << 20;
  /** The most characters of a local's name that a path shows. */
  public static final int MAX_PATH_NAME = 64;
  /** The most characters of a name or uri that a message echoes. */
  static final int MAX_ECHO = 256;

  private final List<Diagnostic> diagnostics = new ArrayList<>();
  private final Consumer<TypedNode> listener;
  private final IdentityHashMap<Type, Long> weights = new IdentityHashMap<>();

  private TypeChecker(Consumer<TypedNode> listener) {
    this.listener = listener;
  }

  /** Checks a closed computation. */
  public static CheckResult check(BuildingBlock root) {
    return check(root, n -> {});
  }

  /** Checks a closed computation, telling {@code listener} each node's type in post-order. */
  public static CheckResult check(BuildingBlock root, Consumer<TypedNode> listener) {
    TypeChecker checker = new TypeChecker(listener);
    Optional<Type> type = checker.infer(root, Scope.EMPTY, "$");
    return new CheckResult(type, checker.diagnostics);
  }

  /** Names in scope; a persistent linked list so that inner scopes share outer ones. */
  private record Scope(String name, Type type, Scope outer) {
    static final Scope EMPTY = new Scope(null, null, null);

    Scope bind(String n, Type t) {
      return new Scope(n, t, this);
    }

    /** Empty optional when unbound; an inner binding with unknown type yields null type. */
    Optional<Optional<Type>> lookup(String n) {
      for (Scope s = this; s != null && s.name != null; s = s.outer) {
        if (s.name.equals(n)) {
          return Optional.of(Optional.ofNullable(s.type));
        }
      }
      return Optional.empty();
    }
  }

  private Optional<Type> infer(BuildingBlock node, Scope scope, String path) {
    Optional<Type> type = inferNode(node, scope, path);
    listener.accept(new TypedNode(node, path, type));
    return type;
  }

  private Optional<Type> inferNode(BuildingBlock node, Scope scope, String path) {
    return switch (node) {
      case Reference r -> {
        Optional<Optional<Type>> found = scope.lookup(r.name());
        if (found.isEmpty()) {
          report(Diagnostic.of(path, "reference to '" + echo(r.name())
              + "', which is not bound here"));
          yield Optional.empty();
        }
        yield found.get();
      }
      case Selection s -> selection(s, scope, path);
      case Struct s -> struct(s, scope, path);
      case Call c -> call(c, scope, path);
      case Lambda l -> {
        Scope inner = l.parameterType().isPresent()
            ? scope.bind(l.parameterName(), l.parameterType().get())
            : scope;
        Optional<Type> result = infer(l.result(), inner, path + ".result");
        yield result.flatMap(r -> bounded(new FunctionType(l.parameterType(), r), path));
      }
      case Block b -> block(b, scope, path);
      case Intrinsic i -> intrinsic(i, path);
      case Data d -> Optional.of(d.type());
      case PlacementLiteral p -> Optional.of(new PlacementType());
      case Literal l -> Optional.of(TensorType.of(l.value().dtype(), l.value().shape().dims()));
      case LocalComputation lc -> Optional.of(lc.type());
    };
  }

  private Optional<Type> selection(Selection s, Scope scope, String path) {
    Optional<Type> source = infer(s.source(), scope, path + ".source");
    if (source.isEmpty()) {
      return Optional.empty();
    }
    if (!(source.get() instanceof StructType st)) {
      report(Diagnostic.of(path, "selection from a value that is not a struct",
          "a struct", source.get().compact()));
      return Optional.empty();
    }
    int index;
    switch (s.key()) {
      case Selection.ByName n -> {
        index = st.indexOf(n.name());
        if (index < 0) {
          report(Diagnostic.of(path, "the struct has no element named '" + echo(n.name()) + "'",
              "a struct with an element " + echo(n.name()), st.compact()));
          return Optional.empty();
        }
      }
      case Selection.ByIndex i -> {
        index = i.index();
        if (index >= st.size()) {
          report(Diagnostic.of(path,
              "index " + index + " is out of range for a struct of " + st.size() + " elements",
              "a struct with at least " + (index + 1) + " elements", st.compact()));
          return Optional.empty();
        }
      }
    }
    return Optional.of(st.get(index));
  }

  private Optional<Type> struct(Struct s, Scope scope, String path) {
    List<StructType.Element> elements = new ArrayList<>();
    Set<String> names = new HashSet<>();
    boolean known = true;
    for (int i = 0; i < s.elements().size(); i++) {
      Struct.Element e = s.elements().get(i);
      Optional<Type> t = infer(e.value(), scope, path + "[" + i + "]");
      if (e.name().isPresent() && !names.add(e.name().get())) {
        report(Diagnostic.of(path + "[" + i + "]",
            "a second element named '" + echo(e.name().get()) + "'"));
        known = false;
      }
      if (t.isEmpty()) {
        known = false;
        continue;
      }
      try {
        elements.add(new StructType.Element(e.name(), t.get()));
      } catch (IllegalArgumentException badName) {
        // A struct value may carry any element name; its type only identifiers.
        report(Diagnostic.of(path + "[" + i + "]",
            "the element name cannot name a struct type's element: " + badName.getMessage()));
        known = false;
      }
    }
    return known ? bounded(new StructType(elements), path) : Optional.empty();
  }

  private Optional<Type> call(Call c, Scope scope, String path) {
    Optional<Type> fn = infer(c.function(), scope, path + ".function");
    Optional<Type> arg = Optional.empty();
    if (c.argument().isPresent()) {
      arg = infer(c.argument().get(), scope, path + ".argument");
    }
    if (fn.isEmpty()) {
      return Optional.empty();
    }
    String callee = c.function() instanceof Intrinsic i ? echo(i.uri()) + ": " : "";
    if (!(fn.get() instanceof FunctionType ft)) {
      report(Diagnostic.of(path, callee + "call of a value that is not a function",
          "a function", fn.get().compact()));
      return Optional.empty();
    }
    if (ft.parameter().isPresent() != c.argument().isPresent()) {
      report(Diagnostic.of(path,
          callee + (ft.parameter().isPresent()
              ? "call without the argument the function needs"
              : "call with an argument of a function that takes none"),
          ft.parameter().map(Type::compact).orElse("no argument"),
          c.argument().isPresent() ? arg.map(Type::compact).orElse("an argument") : "no argument"));
      return Optional.of(ft.result());
    }
    if (ft.parameter().isPresent() && arg.isPresent()
        && !Types.isAssignable(ft.parameter().get(), arg.get())) {
      report(Diagnostic.of(path + ".argument",
          callee + "the argument is not assignable to the parameter",
          ft.parameter().get().compact(), arg.get().compact()));
    }
    return Optional.of(ft.result());
  }

  private Optional<Type> block(Block b, Scope scope, String path) {
    Scope inner = scope;
    Set<String> names = new HashSet<>();
    for (Block.Local local : b.locals()) {
      String localPath = path + ".locals[" + cut(local.name(), MAX_PATH_NAME) + "]";
      Optional<Type> t = infer(local.value(), inner, localPath);
      if (!names.add(local.name())) {
        report(Diagnostic.of(localPath, "a second local named '" + echo(local.name()) + "'"));
      }
      inner = new Scope(local.name(), t.orElse(null), inner);
    }
    return infer(b.result(), inner, path + ".result");
  }

  private Optional<Type> intrinsic(Intrinsic i, String path) {
    Optional<IntrinsicDef> def = IntrinsicCatalogue.byUri(i.uri());
    if (def.isEmpty()) {
      report(Diagnostic.of(path, "unknown intrinsic '" + echo(i.uri()) + "'"));
      return Optional.of(i.type());
    }
    def.get().checkInstance(i.type()).ifPresent(
        f -> report(Diagnostic.of(path, echo(i.uri()) + ": " + f.problem(), f.expected(),
            f.actual())));
    return Optional.of(i.type());
  }

  private void report(Diagnostic d) {
    diagnostics.add(d);
  }

  /** {@code type}, or empty after a report when it weighs more than {@link #MAX_TYPE_WEIGHT}. */
  private Optional<Type> bounded(Type type, String path) {
    long w = weight(type);
    if (w > MAX_TYPE_WEIGHT) {
      report(Diagnostic.of(path, "the type is too large: its compact notation would have more "
          + "than " + MAX_TYPE_WEIGHT + " characters (parts repeated, such as a local used twice "
          + "in a struct, nesting after nesting)"));
      return Optional.empty();
    }
    return Optional.of(type);
  }

  /**
   * About the length of {@code type}'s compact notation, each part computed once (shared parts
   * are weighed once per use, as printing them would), saturating far above the bound.
   */
  private long weight(Type type) {
    Long known = weights.get(type);
    if (known != null) {
      return known;
    }
    long w = switch (type) {
      case TensorType t -> 10L + 4L * t.dims().size();
      case SequenceType q -> 1 + weight(q.element());
      case StructType st -> {
        long sum = 2;
        for (StructType.Element e : st.elements()) {
          sum = add(sum, 1 + e.name().map(String::length).orElse(0) + weight(e.type()));
        }
        yield sum;
      }
      case FunctionType f -> add(add(6, f.parameter().map(this::weight).orElse(0L)),
          weight(f.result()));
      case FederatedType f -> add(3L + f.placement().label().length(), weight(f.member()));
      case PlacementType p -> 9;
      case AbstractType a -> a.label().length();
    };
    weights.put(type, w);
    return w;
  }

  private static long add(long a, long b) {
    return Math.min(Long.MAX_VALUE / 4, a + b);
  }

  /** {@code s} cut to {@link #MAX_ECHO} characters for a message. */
  private static String echo(String s) {
    return cut(s, MAX_ECHO);
  }

  private static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max) + "...(" + s.length() + " chars)";
  }
}
