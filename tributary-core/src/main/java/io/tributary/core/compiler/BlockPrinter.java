package io.tributary.core.compiler;

import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;

/**
 * Prints computations in the compact form of the Federated Core.
 *
 * <p>Lambdas print as {@code (x -> body)}, calls as {@code f(x)}, structs as {@code <a=x,y>},
 * selections as {@code x.name} or {@code x[0]}, blocks as {@code (let a=x,b=y in z)}, intrinsics
 * by their URI, placements by their label, data as {@code data:uri}, local Java functions as
 * {@code java:name} and literals as {@code dtype(value)} or {@code dtype[shape]([values])}.
 * {@link #format} lays blocks out one local per line.
 */
public final class BlockPrinter {
  private static final int MAX_LITERAL_VALUES = 8;
  private static final String INDENT = "  ";

  private final boolean multiline;
  private final StringBuilder sb = new StringBuilder();

  private BlockPrinter(boolean multiline) {
    this.multiline = multiline;
  }

  /** The computation on one line. */
  public static String print(BuildingBlock block) {
    BlockPrinter p = new BlockPrinter(false);
    p.append(block, 0);
    return p.sb.toString();
  }

  /** The computation with each block local on a line of its own, indented by nesting. */
  public static String format(BuildingBlock block) {
    BlockPrinter p = new BlockPrinter(true);
    p.append(block, 0);
    return p.sb.toString();
  }

  private void append(BuildingBlock block, int depth) {
    switch (block) {
      case Reference r -> sb.append(r.name());
      case Selection s -> {
        append(s.source(), depth);
        switch (s.key()) {
          case Selection.ByName n -> sb.append('.').append(n.name());
          case Selection.ByIndex i -> sb.append('[').append(i.index()).append(']');
        }
      }
      case Struct s -> {
        sb.append('<');
        for (int i = 0; i < s.elements().size(); i++) {
          if (i > 0) {
            sb.append(',');
          }
          Struct.Element e = s.elements().get(i);
          e.name().ifPresent(n -> sb.append(n).append('='));
          append(e.value(), depth);
        }
        sb.append('>');
      }
      case Call c -> {
        append(c.function(), depth);
        sb.append('(');
        c.argument().ifPresent(a -> append(a, depth));
        sb.append(')');
      }
      case Lambda l -> {
        sb.append('(').append(l.parameterName()).append(" -> ");
        append(l.result(), depth);
        sb.append(')');
      }
      case Block b -> appendBlock(b, depth);
      case Intrinsic i -> sb.append(i.uri());
      case Data d -> sb.append("data:").append(d.uri());
      case PlacementLiteral p -> sb.append(p.placement().label());
      case Literal l -> appendLiteral(l.value());
      case JavaFunction f -> sb.append("java:").append(f.name());
      case GraphComputation g -> sb.append("graph:").append(g.name());
    }
  }

  private void appendBlock(Block b, int depth) {
    sb.append("(let");
    String pad = INDENT.repeat(depth + 1);
    for (int i = 0; i < b.locals().size(); i++) {
      Block.Local local = b.locals().get(i);
      if (multiline) {
        sb.append(i > 0 ? ",\n" : "\n").append(pad);
      } else {
        sb.append(i > 0 ? "," : " ");
      }
      sb.append(local.name()).append('=');
      append(local.value(), depth + 1);
    }
    sb.append(multiline ? "\n" + INDENT.repeat(depth) + " in " : " in ");
    append(b.result(), depth);
    sb.append(')');
  }

  private void appendLiteral(Tensor t) {
    sb.append(t.dtype().typeName());
    long[] dims = t.shape().dims();
    if (dims.length == 0) {
      sb.append('(');
      appendElement(t, 0);
      sb.append(')');
      return;
    }
    sb.append('[');
    for (int i = 0; i < dims.length; i++) {
      sb.append(i > 0 ? "," : "").append(dims[i]);
    }
    sb.append("]([");
    long n = Math.min(t.size(), MAX_LITERAL_VALUES);
    for (long i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(',');
      }
      appendElement(t, i);
    }
    sb.append(t.size() > n ? ",...])" : "])");
  }

  private void appendElement(Tensor t, long i) {
    DType d = t.dtype();
    switch (d.kind()) {
      case BOOL -> sb.append(t.getBoolean(i));
      case SIGNED, UNSIGNED -> sb.append(integerText(t, i));
      case FLOAT -> sb.append(d == DType.FLOAT64 ? Double.toString(t.getDouble(i))
          : Float.toString((float) t.getAsDouble(i)));
      case COMPLEX -> sb.append(t.getReal(i)).append(t.getImag(i) < 0 ? "" : "+")
          .append(t.getImag(i)).append('j');
      case STRING -> sb.append('"').append(t.getString(i).replace("\\", "\\\\")
          .replace("\"", "\\\"")).append('"');
    }
  }

  private static String integerText(Tensor t, long i) {
    return switch (t.dtype()) {
      case INT64 -> Long.toString(t.getLong(i));
      case UINT64 -> Long.toUnsignedString(t.getLong(i));
      // Every narrower integer is exact as a double.
      default -> Long.toString((long) t.getAsDouble(i));
    };
  }
}
