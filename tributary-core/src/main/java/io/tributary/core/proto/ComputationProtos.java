package io.tributary.core.proto;

import com.google.protobuf.CodedInputStream;
import io.tributary.core.compiler.Block;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Call;
import io.tributary.core.compiler.CheckResult;
import io.tributary.core.compiler.Data;
import io.tributary.core.compiler.Diagnostic;
import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Literal;
import io.tributary.core.compiler.PlacementLiteral;
import io.tributary.core.compiler.Reference;
import io.tributary.core.compiler.Selection;
import io.tributary.core.compiler.Struct;
import io.tributary.core.compiler.TypeCheckException;
import io.tributary.core.compiler.TypeChecker;
import io.tributary.core.compiler.TypedNode;
import io.tributary.core.proto.internal.Computation;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Converts computations to and from the {@code Computation} message.
 *
 * <p>Writing requires a well-typed computation and fills in the {@code type} of every node, as
 * federated-language does; a selection by name is written as the element's index. Reading
 * rebuilds the tree, type checks it, and checks every declared {@code type} against the inferred
 * one.
 */
public final class ComputationProtos {
  /** Nesting limit for reading, in Computation levels (up to four protobuf levels each). */
  static final int MAX_DEPTH = 400;

  private ComputationProtos() {}

  /**
   * The message for a well-typed computation.
   *
   * @throws TypeCheckException when the computation is not well typed
   */
  static Computation toProto(BuildingBlock root) {
    CheckResult check = TypeChecker.check(root);
    if (!check.ok()) {
      throw new TypeCheckException("the computation", check.diagnostics());
    }
    Deque<Entry> stack = new ArrayDeque<>();
    TypeChecker.check(root, node -> stack.push(build(node, stack)));
    return stack.pop().proto();
  }

  /**
   * The serialized {@code federated_language.Computation} message of a well-typed computation.
   *
   * @throws TypeCheckException when the computation is not well typed
   */
  public static byte[] toBytes(BuildingBlock root) {
    return toProto(root).toByteArray();
  }

  /**
   * Whether a serialized message is a {@code federated_language.Computation} rather than another
   * message kept in {@code .pb} files, Flower's {@code Parameters} ({@code repeated bytes
   * tensors = 1; string tensor_type = 2}). It is when its top level carries a field 2 that is
   * not text (a TensorFlow body, which {@link #fromBytes} then refuses by name), or a computation
   * body other than TensorFlow (fields 3 to 12, 14, 1000) and no field 2 that is text (a
   * tensor_type), in whatever order the fields come. Reads the stream's top-level
   * field tags and skips their contents without keeping them; a stream that is not a message at
   * all is not a computation.
   */
  public static boolean looksLikeComputation(java.io.InputStream message) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(message);
    in.setSizeLimit(Integer.MAX_VALUE);
    boolean body = false;
    try {
      // Every top-level field is looked at, in whatever order they come: a Parameters message
      // may carry unknown fields (3, say) before its tensor_type, which alone decides.
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        int field = com.google.protobuf.WireFormat.getTagFieldNumber(tag);
        boolean delimited = com.google.protobuf.WireFormat.getTagWireType(tag)
            == com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED;
        if (delimited && field == 2) {
          int length = in.readRawVarint32();
          if (length >= 0 && length <= MAX_TENSOR_TYPE && isText(in.readRawBytes(length))) {
            return false;
          }
          return true;
        }
        if (delimited && ((field >= 3 && field <= 12) || field == 14 || field == 1000)) {
          body = true;
        }
        in.skipField(tag);
      }
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      return body;
    }
    return body;
  }

  /** The most type problems a refusal lists. */
  private static final int MAX_LISTED = 10;

  /** Longer than any tensor_type name: a field 2 this long is a TensorFlow body. */
  private static final int MAX_TENSOR_TYPE = 256;

  /** Printable ASCII, as a tensor_type such as {@code numpy.ndarray} is. */
  private static boolean isText(byte[] bytes) {
    for (byte b : bytes) {
      if (b < 0x20 || b > 0x7e) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads a serialized {@code federated_language.Computation} message.
   *
   * @param locals resolves the names of local Java functions
   * @throws MalformedComputationException naming the path and the problem when the bytes are not
   *     a message, a field is missing or unsupported, or the computation is not well typed or
   *     disagrees with its declared types
   */
  public static BuildingBlock fromBytes(byte[] bytes, LocalResolver locals)
      throws MalformedComputationException {
    CodedInputStream in = CodedInputStream.newInstance(bytes);
    in.setRecursionLimit(4 * MAX_DEPTH);
    Computation proto;
    try {
      proto = Computation.parseFrom(in);
    } catch (IOException e) {
      throw new MalformedComputationException("$", "not a Computation message: " + e.getMessage(),
          e);
    }
    return fromProto(proto, locals);
  }

  /**
   * Reads a computation.
   *
   * @param locals resolves the names of local Java functions
   * @throws MalformedComputationException naming the path and the problem when a field is
   *     missing or unsupported, or when the computation is not well typed or disagrees with its
   *     declared types
   */
  static BuildingBlock fromProto(Computation proto, LocalResolver locals)
      throws MalformedComputationException {
    ProtoReader reader = new ProtoReader(locals);
    BuildingBlock root = reader.read(proto, "$", 0);
    List<Optional<Type>> declared = reader.declaredTypes();
    List<Diagnostic> problems = new ArrayList<>();
    int[] index = {0};
    CheckResult check = TypeChecker.check(root, node -> {
      Optional<Type> want = declared.get(index[0]++);
      if (want.isPresent() && node.type().isPresent()
          && !Types.isAssignable(want.get(), node.type().get())) {
        problems.add(new Diagnostic(node.path(), "the declared type does not match the node",
            Optional.of(want.get().compact()), Optional.of(node.type().get().compact())));
      }
    });
    problems.addAll(0, check.diagnostics());
    if (!problems.isEmpty()) {
      StringBuilder sb = new StringBuilder("the computation is not well typed:");
      // The first few problems: a hostile computation may have a million.
      for (Diagnostic d : problems.subList(0, Math.min(MAX_LISTED, problems.size()))) {
        sb.append("\n").append(d);
      }
      if (problems.size() > MAX_LISTED) {
        sb.append("\n... and ").append(problems.size() - MAX_LISTED).append(" more");
      }
      throw new MalformedComputationException(problems.get(0).path(), sb.toString());
    }
    return root;
  }

  private record Entry(Computation proto, Type type) {}

  /** Builds one node's message from its children's, which are on top of the stack. */
  private static Entry build(TypedNode node, Deque<Entry> stack) {
    Type type = node.type().orElseThrow();
    Computation.Builder b = Computation.newBuilder().setType(TypeProtos.toProto(type));
    switch (node.node()) {
      case Reference r -> b.setReference(
          io.tributary.core.proto.internal.Reference.newBuilder().setName(r.name()));
      case Selection s -> {
        Entry source = stack.pop();
        int index = switch (s.key()) {
          case Selection.ByIndex i -> i.index();
          case Selection.ByName n -> ((StructType) source.type()).indexOf(n.name());
        };
        b.setSelection(io.tributary.core.proto.internal.Selection.newBuilder()
            .setSource(source.proto()).setIndex(index));
      }
      case Struct s -> {
        List<Entry> values = popN(stack, s.elements().size());
        var sb = io.tributary.core.proto.internal.Struct.newBuilder();
        for (int i = 0; i < values.size(); i++) {
          sb.addElement(io.tributary.core.proto.internal.Struct.Element.newBuilder()
              .setName(s.elements().get(i).name().orElse(""))
              .setValue(values.get(i).proto()));
        }
        b.setStruct(sb);
      }
      case Call c -> {
        var cb = io.tributary.core.proto.internal.Call.newBuilder();
        if (c.argument().isPresent()) {
          cb.setArgument(stack.pop().proto());
        }
        cb.setFunction(stack.pop().proto());
        b.setCall(cb);
      }
      case Lambda l -> b.setLambda(io.tributary.core.proto.internal.Lambda.newBuilder()
          .setParameterName(l.parameterName()).setResult(stack.pop().proto()));
      case Block k -> {
        Entry result = stack.pop();
        List<Entry> values = popN(stack, k.locals().size());
        var kb = io.tributary.core.proto.internal.Block.newBuilder().setResult(result.proto());
        for (int i = 0; i < values.size(); i++) {
          kb.addLocal(io.tributary.core.proto.internal.Block.Local.newBuilder()
              .setName(k.locals().get(i).name()).setValue(values.get(i).proto()));
        }
        b.setBlock(kb);
      }
      case Intrinsic i -> b.setIntrinsic(
          io.tributary.core.proto.internal.Intrinsic.newBuilder().setUri(i.uri()));
      case Data d -> b.setData(io.tributary.core.proto.internal.Data.newBuilder()
          .setContent(DataPayloads.write(d)));
      case PlacementLiteral p -> b.setPlacement(
          io.tributary.core.proto.internal.Placement.newBuilder()
              .setUri(p.placement().uri()));
      case Literal l -> b.setLiteral(io.tributary.core.proto.internal.Literal.newBuilder()
          .setValue(ArrayProtos.toProto(l.value())));
      case JavaFunction f -> b.setLocalComputation(
          io.tributary.core.proto.internal.LocalComputation.newBuilder()
              .setJavaFunction(io.tributary.core.proto.internal.JavaFunction.newBuilder()
                  .setName(f.name())));
      case GraphComputation g -> b.setLocalComputation(
          io.tributary.core.proto.internal.LocalComputation.newBuilder()
              .setGraphComputation(graphProto(g)));
    }
    return new Entry(b.build(), type);
  }

  private static io.tributary.core.proto.internal.GraphComputation graphProto(GraphComputation g) {
    var gb = io.tributary.core.proto.internal.GraphComputation.newBuilder()
        .setName(g.name())
        .setProcedure(g.procedure())
        .setGraph(com.google.protobuf.ByteString.copyFrom(g.graph()));
    for (var e : g.settings().entrySet()) {
      gb.addSetting(io.tributary.core.proto.internal.Setting.newBuilder()
          .setName(e.getKey()).setValue(e.getValue()));
    }
    return gb.build();
  }

  private static List<Entry> popN(Deque<Entry> stack, int n) {
    List<Entry> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(0, stack.pop());
    }
    return out;
  }

}
