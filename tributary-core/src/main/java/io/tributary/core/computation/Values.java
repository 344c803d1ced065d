package io.tributary.core.computation;

import io.tributary.core.compiler.Struct;
import io.tributary.core.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Combining values: the shared tracer of several values, and unnamed tuples of them. */
final class Values {
  private Values() {}

  /** The tracer the values belong to; mixing values of two computations is an error. */
  static Optional<Tracer> commonTracer(String operation, List<Value> values) {
    Tracer found = null;
    for (Value v : values) {
      Tracer t = v.tracer().orElse(null);
      if (t != null && found != null && t != found) {
        throw new DefinitionException(operation,
            "values from two different computations were combined; pass outer values in as"
                + " parameters", "values of one computation", v.type().compact(),
            CallSites.find());
      }
      if (t != null) {
        found = t;
      }
    }
    return Optional.ofNullable(found);
  }

  /** An unnamed struct of the values. */
  static Value tuple(Value... parts) {
    List<Struct.Element> elements = new ArrayList<>();
    List<StructType.Element> types = new ArrayList<>();
    for (Value p : parts) {
      elements.add(new Struct.Element(Optional.empty(), p.block()));
      types.add(StructType.Element.unnamed(p.type()));
    }
    Tracer t = commonTracer("struct", List.of(parts)).orElse(null);
    return new Value(new Struct(elements), new StructType(types), t);
  }

  /** A struct with the given element names (empty for unnamed) and values. */
  static Value struct(List<Optional<String>> names, List<Value> parts) {
    List<Struct.Element> elements = new ArrayList<>();
    List<StructType.Element> types = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      elements.add(new Struct.Element(names.get(i), parts.get(i).block()));
      types.add(new StructType.Element(names.get(i), parts.get(i).type()));
    }
    Tracer t = commonTracer("struct", parts).orElse(null);
    return new Value(new Struct(elements), new StructType(types), t);
  }

}
