package io.tributary.core.proto;

import io.tributary.core.compiler.Block;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Call;
import io.tributary.core.compiler.Data;
import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Literal;
import io.tributary.core.compiler.PlacementLiteral;
import io.tributary.core.compiler.Reference;
import io.tributary.core.compiler.Selection;
import io.tributary.core.compiler.Struct;
import io.tributary.core.proto.internal.Computation;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.Placements;
import io.tributary.core.types.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Rebuilds the node tree from a message, checking its structure; records each node's declared
 * type in the post-order the type checker visits nodes in.
 */
final class ProtoReader {
  private final LocalResolver locals;
  private final List<Optional<Type>> declared = new ArrayList<>();

  ProtoReader(LocalResolver locals) {
    this.locals = locals;
  }

  List<Optional<Type>> declaredTypes() {
    return declared;
  }

  BuildingBlock read(Computation p, String path, int depth) throws MalformedComputationException {
    if (depth > ComputationProtos.MAX_DEPTH) {
      throw new MalformedComputationException(
          path, "computation nested deeper than " + ComputationProtos.MAX_DEPTH + " levels");
    }
    Optional<Type> type = p.hasType()
        ? Optional.of(TypeProtos.fromProto(p.getType(), Placements.standard(), path + ".type"))
        : Optional.empty();
    BuildingBlock node;
    try {
      node = readNode(p, type, path, depth);
    } catch (IllegalArgumentException e) {
      throw new MalformedComputationException(path, e.getMessage(), e);
    }
    declared.add(type);
    return node;
  }

  // Data.uri is deprecated upstream in favour of content, but is still read.
  @SuppressWarnings("deprecation")
  private BuildingBlock readNode(Computation p, Optional<Type> type, String path, int depth)
      throws MalformedComputationException {
    return switch (p.getComputationCase()) {
      case REFERENCE -> new Reference(p.getReference().getName());
      case SELECTION -> {
        var s = p.getSelection();
        BuildingBlock source = child(s.hasSource(), s.getSource(), path + ".source", depth);
        yield Selection.byIndex(source, s.getIndex());
      }
      case STRUCT -> {
        List<Struct.Element> elements = new ArrayList<>();
        for (int i = 0; i < p.getStruct().getElementCount(); i++) {
          var e = p.getStruct().getElement(i);
          BuildingBlock v = child(e.hasValue(), e.getValue(), path + "[" + i + "]", depth);
          elements.add(new Struct.Element(
              e.getName().isEmpty() ? Optional.empty() : Optional.of(e.getName()), v));
        }
        yield new Struct(elements);
      }
      case CALL -> {
        var c = p.getCall();
        BuildingBlock fn = child(c.hasFunction(), c.getFunction(), path + ".function", depth);
        Optional<BuildingBlock> arg = c.hasArgument()
            ? Optional.of(read(c.getArgument(), path + ".argument", depth + 1))
            : Optional.empty();
        yield new Call(fn, arg);
      }
      case LAMBDA -> {
        var l = p.getLambda();
        FunctionType ft = declaredFunction(type, path, "lambda");
        if (ft.parameter().isEmpty() && !l.getParameterName().isEmpty()) {
          throw new MalformedComputationException(path,
              "lambda names parameter '" + l.getParameterName() + "' but its type " + ft
                  + " has none");
        }
        BuildingBlock body = child(l.hasResult(), l.getResult(), path + ".result", depth);
        yield new Lambda(l.getParameterName(), ft.parameter(), body);
      }
      case BLOCK -> {
        var k = p.getBlock();
        List<Block.Local> ls = new ArrayList<>();
        for (var local : k.getLocalList()) {
          String at = path + ".locals[" + local.getName() + "]";
          ls.add(new Block.Local(local.getName(), child(local.hasValue(), local.getValue(), at,
              depth)));
        }
        BuildingBlock result = child(k.hasResult(), k.getResult(), path + ".result", depth);
        yield new Block(ls, result);
      }
      case INTRINSIC -> new Intrinsic(p.getIntrinsic().getUri(), required(type, path));
      case DATA -> {
        var d = p.getData();
        if (d.hasContent()) {
          yield DataPayloads.read(d.getContent(), required(type, path), path);
        }
        yield new Data(d.getUri(), required(type, path));
      }
      case PLACEMENT -> {
        String uri = p.getPlacement().getUri();
        Placement placement = Placements.standard().byUri(uri).orElseThrow(
            () -> new MalformedComputationException(path, "unknown placement uri '" + uri + "'"));
        yield new PlacementLiteral(placement);
      }
      case LITERAL -> {
        if (!p.getLiteral().hasValue()) {
          throw new MalformedComputationException(path + ".value", "missing");
        }
        yield new Literal(ArrayProtos.fromProto(p.getLiteral().getValue(), path + ".value"));
      }
      case LOCAL_COMPUTATION -> localComputation(p, type, path);
      case TENSORFLOW -> throw new MalformedComputationException(path,
          "TensorFlow computations are not supported; use a Tributary local computation");
      case XLA -> throw new MalformedComputationException(path,
          "XLA computations are not supported; use a Tributary local computation");
      case COMPUTATION_NOT_SET -> throw new MalformedComputationException(path,
          "no computation kind is set" + UnknownFields.describe(p));
    };
  }

  private BuildingBlock localComputation(Computation p, Optional<Type> type, String path)
      throws MalformedComputationException {
    var lc = p.getLocalComputation();
    return switch (lc.getKindCase()) {
      case JAVA_FUNCTION -> {
        String name = lc.getJavaFunction().getName();
        JavaFunction f = locals.javaFunction(name).orElseThrow(
            () -> new MalformedComputationException(path,
                "unknown local function '" + name + "'; the reader's LocalResolver does not"
                    + " know it"));
        FunctionType declaredType = declaredFunction(type, path, "local function " + name);
        if (!declaredType.equals(f.type())) {
          throw new MalformedComputationException(path,
              "local function " + name + " is declared as " + declaredType
                  + " but the resolved function has type " + f.type());
        }
        yield f;
      }
      case GRAPH_COMPUTATION -> graphComputation(lc.getGraphComputation(), type, path);
      case KIND_NOT_SET -> throw new MalformedComputationException(path,
          "local computation of no known kind" + UnknownFields.describe(lc));
    };
  }

  private static BuildingBlock graphComputation(
      io.tributary.core.proto.internal.GraphComputation g, Optional<Type> type, String path)
      throws MalformedComputationException {
    String where = path + ".local_computation.graph_computation";
    FunctionType declaredType = declaredFunction(type, path, "graph computation " + g.getName());
    if (g.getSettingCount() > GraphComputation.MAX_SETTINGS) {
      throw new MalformedComputationException(where + ".setting",
          g.getSettingCount() + " settings; at most " + GraphComputation.MAX_SETTINGS
              + " are allowed");
    }
    java.util.TreeMap<String, String> settings = new java.util.TreeMap<>();
    for (int i = 0; i < g.getSettingCount(); i++) {
      var s = g.getSetting(i);
      if (settings.put(s.getName(), s.getValue()) != null) {
        throw new MalformedComputationException(where + ".setting[" + i + "]",
            "a second setting named '" + s.getName() + "'");
      }
    }
    try {
      return new GraphComputation(g.getName(), declaredType, g.getProcedure(),
          g.getGraph().toByteArray(), settings);
    } catch (IllegalArgumentException e) {
      throw new MalformedComputationException(where, e.getMessage());
    }
  }

  private BuildingBlock child(boolean present, Computation c, String path, int depth)
      throws MalformedComputationException {
    if (!present) {
      throw new MalformedComputationException(path, "missing");
    }
    return read(c, path, depth + 1);
  }

  private static Type required(Optional<Type> type, String path)
      throws MalformedComputationException {
    return type.orElseThrow(
        () -> new MalformedComputationException(path + ".type", "missing; this node needs it"));
  }

  private static FunctionType declaredFunction(Optional<Type> type, String path, String what)
      throws MalformedComputationException {
    Type t = required(type, path);
    if (!(t instanceof FunctionType f)) {
      throw new MalformedComputationException(path + ".type",
          what + " needs a function type but declares " + t);
    }
    return f;
  }
}
