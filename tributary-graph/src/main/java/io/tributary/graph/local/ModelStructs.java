package io.tributary.graph.local;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.graph.Variable;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maps a graph's parameters to and from the Federated Core struct that carries them.
 *
 * <p>Parameter names are paths such as {@code dense/kernel}; struct element names are
 * identifiers, so each path segment becomes one level of nesting:
 * {@code dense/kernel, dense/bias} is the struct
 * {@code <dense=<kernel=float32[60,10],bias=float32[10]>>}. Elements keep the order in which
 * the parameters first mention them.
 */
public final class ModelStructs {
  private ModelStructs() {}

  /**
   * The struct type of these parameters.
   *
   * @throws IllegalArgumentException if a path segment is not an identifier, a parameter's shape
   *     is not fully known, or one name is both a parameter and a scope ({@code a} and
   *     {@code a/b})
   */
  public static StructType structType(List<Variable> parameters) {
    Node root = new Node();
    for (Variable v : parameters) {
      if (!v.shape().isFullyKnown()) {
        throw new IllegalArgumentException(
            "parameter '" + v.name() + "' has shape " + v.shape() + ", which is not fully known");
      }
      String[] segments = v.name().split("/", -1);
      Node at = root;
      for (int i = 0; i < segments.length; i++) {
        String seg = segments[i];
        if (!isIdentifier(seg)) {
          throw new IllegalArgumentException("parameter '" + v.name() + "' has the path segment '"
              + seg + "', which is not a struct element name (letters, digits and '_')");
        }
        if (at.leaf != null) {
          throw new IllegalArgumentException("parameter '" + v.name() + "' lies under '"
              + String.join("/", List.of(segments).subList(0, i)) + "', which is a parameter");
        }
        at = at.children.computeIfAbsent(seg, k -> new Node());
      }
      if (at.leaf != null || !at.children.isEmpty()) {
        throw new IllegalArgumentException(
            "parameter '" + v.name() + "' is declared twice or is also a scope");
      }
      at.leaf = TensorType.of(v.dtype(), v.shape().dims());
    }
    return (StructType) root.toType();
  }

  /** The parameter names of a model struct type, as '/'-joined paths, in element order. */
  public static List<String> parameterNames(StructType type) {
    List<String> out = new ArrayList<>();
    collect(type, "", out);
    return out;
  }

  /** The value of {@code type} holding these parameters. */
  public static StructValue toValue(StructType type, Map<String, Tensor> parameters) {
    return build(type, "", parameters);
  }

  /**
   * The parameters held by {@code value}, a value of the model struct type, by path.
   *
   * @param where names the value in messages, such as {@code "client_update: model"}
   * @throws LocalRunException if the value is not a struct of tensors of that type
   */
  public static Map<String, Tensor> fromValue(StructType type, Object value, String where) {
    Map<String, Tensor> out = new LinkedHashMap<>();
    read(type, value, "", where, out);
    return out;
  }

  private static void collect(StructType type, String prefix, List<String> out) {
    for (StructType.Element e : type.elements()) {
      String path = prefix + e.name().orElseThrow(
          () -> new IllegalArgumentException("a model struct needs named elements: " + type));
      if (e.type() instanceof StructType s) {
        collect(s, path + "/", out);
      } else if (e.type() instanceof TensorType) {
        out.add(path);
      } else {
        throw new IllegalArgumentException(
            "element '" + path + "' of a model struct is " + e.type() + ", not a tensor");
      }
    }
  }

  private static StructValue build(StructType type, String prefix, Map<String, Tensor> params) {
    List<Optional<String>> names = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    for (StructType.Element e : type.elements()) {
      String name = e.name().orElseThrow();
      String path = prefix + name;
      names.add(Optional.of(name));
      if (e.type() instanceof StructType s) {
        values.add(build(s, path + "/", params));
      } else {
        Tensor t = params.get(path);
        if (t == null) {
          throw new IllegalArgumentException("no value for parameter '" + path + "'");
        }
        values.add(t);
      }
    }
    return StructValue.of(names, values);
  }

  private static void read(StructType type, Object value, String prefix, String where,
      Map<String, Tensor> out) {
    String at = prefix.isEmpty() ? "the model" : "'" + prefix.substring(0, prefix.length() - 1)
        + "'";
    if (!(value instanceof StructValue s)) {
      throw new LocalRunException(where + ": " + at + " should be a StructValue of type " + type
          + " but is " + describe(value));
    }
    if (s.size() != type.size()) {
      throw new LocalRunException(where + ": " + at + " has " + s.size() + " elements; its type "
          + type + " has " + type.size());
    }
    for (int i = 0; i < type.size(); i++) {
      StructType.Element e = type.elements().get(i);
      String name = e.name().orElseThrow();
      if (!s.names().get(i).equals(Optional.of(name))) {
        throw new LocalRunException(where + ": element " + i + " of " + at + " should be named '"
            + name + "' but is " + s.names().get(i).map(n -> "'" + n + "'").orElse("unnamed"));
      }
      String path = prefix + name;
      Object v = s.get(i);
      if (e.type() instanceof StructType child) {
        read(child, v, path + "/", where, out);
      } else {
        TensorType t = (TensorType) e.type();
        if (!(v instanceof Tensor x) || x.dtype() != t.dtype()
            || !java.util.Arrays.equals(x.shape().dims(), toArray(t.dims()))) {
          throw new LocalRunException(where + ": parameter '" + path + "' should be a tensor "
              + t + " but is " + describe(v));
        }
        out.put(path, x);
      }
    }
  }

  static String describe(Object v) {
    if (v instanceof Tensor t) {
      return "a tensor " + t.dtype().typeName() + t.shape();
    }
    return v == null ? "null" : "a " + v.getClass().getSimpleName();
  }

  private static long[] toArray(List<Long> dims) {
    long[] out = new long[dims.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = dims.get(i);
    }
    return out;
  }

  private static boolean isIdentifier(String s) {
    if (s.isEmpty() || !(Character.isLetter(s.charAt(0)) || s.charAt(0) == '_')) {
      return false;
    }
    for (int i = 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(Character.isLetterOrDigit(c) || c == '_')) {
        return false;
      }
    }
    return true;
  }

  /** One level of the name tree: a parameter (leaf) or a scope (children). */
  private static final class Node {
    final Map<String, Node> children = new LinkedHashMap<>();
    Type leaf;

    Type toType() {
      if (leaf != null) {
        return leaf;
      }
      List<StructType.Element> elements = new ArrayList<>();
      for (Map.Entry<String, Node> e : children.entrySet()) {
        elements.add(StructType.Element.named(e.getKey(), e.getValue().toType()));
      }
      return new StructType(elements);
    }
  }
}
