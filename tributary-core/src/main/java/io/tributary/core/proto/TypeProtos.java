package io.tributary.core.proto;

import io.tributary.core.types.AbstractType;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.PlacementType;
import io.tributary.core.types.Placements;
import io.tributary.core.types.SequenceType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Converts {@link Type}s to and from federated-language's {@code Type} message. */
public final class TypeProtos {
  /** Deeper types are rejected rather than risking the stack. */
  static final int MAX_DEPTH = 500;

  private TypeProtos() {}

  /** The serialized {@code federated_language.Type} message of {@code type}. */
  public static byte[] toBytes(Type type) {
    return toProto(type).toByteArray();
  }

  /**
   * Reads a serialized {@code federated_language.Type} message with the standard placements.
   *
   * @throws MalformedComputationException naming the path and the problem
   */
  public static Type fromBytes(byte[] bytes) throws MalformedComputationException {
    com.google.protobuf.CodedInputStream in = com.google.protobuf.CodedInputStream.newInstance(
        bytes);
    in.setRecursionLimit(2 * MAX_DEPTH + 16);
    io.tributary.core.proto.internal.Type proto;
    try {
      proto = io.tributary.core.proto.internal.Type.parseFrom(in);
    } catch (java.io.IOException e) {
      throw new MalformedComputationException("$", "not a Type message: " + e.getMessage(), e);
    }
    return fromProto(proto);
  }

  /** The message for {@code type}. */
  static io.tributary.core.proto.internal.Type toProto(Type type) {
    var b = io.tributary.core.proto.internal.Type.newBuilder();
    switch (type) {
      case TensorType t -> {
        var tb = io.tributary.core.proto.internal.TensorType.newBuilder()
            .setDtype(DataTypes.toProto(t.dtype()))
            .setUnknownRank(t.unknownRank());
        t.dims().forEach(tb::addDims);
        b.setTensor(tb);
      }
      case SequenceType s -> b.setSequence(
          io.tributary.core.proto.internal.SequenceType.newBuilder()
              .setElement(toProto(s.element())));
      case StructType s -> {
        var sb = io.tributary.core.proto.internal.StructType.newBuilder();
        for (StructType.Element e : s.elements()) {
          sb.addElement(io.tributary.core.proto.internal.StructType.Element.newBuilder()
              .setName(e.name().orElse(""))
              .setValue(toProto(e.type())));
        }
        b.setStruct(sb);
      }
      case FunctionType f -> {
        var fb = io.tributary.core.proto.internal.FunctionType.newBuilder()
            .setResult(toProto(f.result()));
        f.parameter().ifPresent(p -> fb.setParameter(toProto(p)));
        b.setFunction(fb);
      }
      case PlacementType p ->
          b.setPlacement(io.tributary.core.proto.internal.PlacementType.getDefaultInstance());
      case FederatedType f -> b.setFederated(
          io.tributary.core.proto.internal.FederatedType.newBuilder()
              .setPlacement(io.tributary.core.proto.internal.PlacementSpec.newBuilder()
                  .setValue(io.tributary.core.proto.internal.Placement.newBuilder()
                      .setUri(f.placement().uri())))
              .setAllEqual(f.allEqual())
              .setMember(toProto(f.member())));
      case AbstractType a -> b.setAbstract(
          io.tributary.core.proto.internal.AbstractType.newBuilder().setLabel(a.label()));
    }
    return b.build();
  }

  /** Reads a type with the standard placements. */
  static Type fromProto(io.tributary.core.proto.internal.Type proto)
      throws MalformedComputationException {
    return fromProto(proto, Placements.standard(), "$");
  }

  /**
   * Reads a type, resolving placement URIs against {@code placements}.
   *
   * @param path where the type sits, for error messages
   */
  static Type fromProto(
      io.tributary.core.proto.internal.Type proto, Placements placements, String path)
      throws MalformedComputationException {
    return new Reader(placements).read(proto, path, 0);
  }

  private record Reader(Placements placements) {
    Type read(io.tributary.core.proto.internal.Type p, String path, int depth)
        throws MalformedComputationException {
      if (depth > MAX_DEPTH) {
        throw new MalformedComputationException(path, "type nested deeper than " + MAX_DEPTH);
      }
      try {
        return switch (p.getTypeCase()) {
          case TENSOR -> tensor(p.getTensor(), path);
          case SEQUENCE -> new SequenceType(
              required(p.getSequence().hasElement(), p.getSequence().getElement(),
                  path + ".sequence.element", depth));
          case STRUCT -> struct(p.getStruct(), path, depth);
          case FUNCTION -> {
            var f = p.getFunction();
            Optional<Type> param = f.hasParameter()
                ? Optional.of(read(f.getParameter(), path + ".function.parameter", depth + 1))
                : Optional.empty();
            yield new FunctionType(param,
                required(f.hasResult(), f.getResult(), path + ".function.result", depth));
          }
          case PLACEMENT -> new PlacementType();
          case FEDERATED -> federated(p.getFederated(), path, depth);
          case ABSTRACT -> new AbstractType(p.getAbstract().getLabel());
          case TYPE_NOT_SET -> throw new MalformedComputationException(
              path, "type has no kind set" + UnknownFields.describe(p));
        };
      } catch (IllegalArgumentException e) {
        throw new MalformedComputationException(path, e.getMessage(), e);
      }
    }

    private Type required(boolean present, io.tributary.core.proto.internal.Type p, String path,
        int depth) throws MalformedComputationException {
      if (!present) {
        throw new MalformedComputationException(path, "missing");
      }
      return read(p, path, depth + 1);
    }

    private Type tensor(io.tributary.core.proto.internal.TensorType t, String path)
        throws MalformedComputationException {
      var dtype = DataTypes.fromProto(t.getDtype(), path + ".tensor.dtype");
      List<Long> dims = new ArrayList<>(t.getDimsList());
      return new TensorType(dtype, dims, t.getUnknownRank());
    }

    private Type struct(io.tributary.core.proto.internal.StructType s, String path, int depth)
        throws MalformedComputationException {
      List<StructType.Element> elements = new ArrayList<>();
      for (int i = 0; i < s.getElementCount(); i++) {
        var e = s.getElement(i);
        String at = path + ".struct[" + i + "]";
        Type t = required(e.hasValue(), e.getValue(), at, depth);
        elements.add(new StructType.Element(
            e.getName().isEmpty() ? Optional.empty() : Optional.of(e.getName()), t));
      }
      return new StructType(elements);
    }

    private Type federated(io.tributary.core.proto.internal.FederatedType f, String path,
        int depth) throws MalformedComputationException {
      var spec = f.getPlacement();
      if (spec.hasLabel()) {
        throw new MalformedComputationException(path + ".federated.placement",
            "placement labels ('" + spec.getLabel().getLabel() + "') are not supported; use a"
                + " placement value");
      }
      if (!spec.hasValue()) {
        throw new MalformedComputationException(path + ".federated.placement", "missing");
      }
      String uri = spec.getValue().getUri();
      Placement placement = placements.byUri(uri).orElseThrow(
          () -> new MalformedComputationException(path + ".federated.placement",
              "unknown placement uri '" + uri + "'"));
      Type member = required(f.hasMember(), f.getMember(), path + ".federated.member", depth);
      return new FederatedType(member, placement, f.getAllEqual());
    }
  }
}
