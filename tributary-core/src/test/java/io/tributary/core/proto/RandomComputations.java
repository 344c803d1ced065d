package io.tributary.core.proto;

import io.tributary.core.compiler.Block;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Call;
import io.tributary.core.compiler.Data;
import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.compiler.IntrinsicCatalogue;
import io.tributary.core.compiler.IntrinsicDef;
import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Literal;
import io.tributary.core.compiler.PlacementLiteral;
import io.tributary.core.compiler.Reference;
import io.tributary.core.compiler.Selection;
import io.tributary.core.compiler.Specialization;
import io.tributary.core.compiler.Struct;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.PlacementType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import io.tributary.core.types.RandomTypes;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/** Generates random closed computations that are well typed by construction. */
final class RandomComputations {
  static final JavaFunction SQUARE = new JavaFunction(
      "square", (FunctionType) Types.parse("(float32 -> float32)"), x -> x);
  static final JavaFunction TRAIN = new JavaFunction(
      "train", (FunctionType) Types.parse("(<float32[3],int32*> -> float32[3])"), x -> x);
  static final LocalResolver LOCALS = LocalResolver.of(List.of(SQUARE, TRAIN));

  record Typed(BuildingBlock block, Type type) {}

  private record Binding(String name, Type type) {}

  private final Random random;
  private final RandomTypes types;

  RandomComputations(Random random) {
    this.random = random;
    this.types = new RandomTypes(random);
  }

  Typed any(int depth) {
    return gen(depth, List.of());
  }

  private Typed gen(int depth, List<Binding> env) {
    int choice = depth <= 0 ? random.nextInt(4) : random.nextInt(13);
    return switch (choice) {
      case 0 -> literal();
      case 1 -> env.isEmpty() ? literal() : reference(env);
      case 2 -> new Typed(new PlacementLiteral(
          random.nextBoolean() ? Placement.CLIENTS : Placement.SERVER), new PlacementType());
      case 3 -> {
        Type t = types.any(2);
        yield Types.containsAbstract(t) ? literal() : new Typed(new Data("mem://d" + random
            .nextInt(9), t), t);
      }
      case 4 -> struct(depth, env);
      case 5 -> selection(depth, env);
      case 6 -> lambda(depth, env);
      case 7 -> call(depth, env);
      case 8 -> block(depth, env);
      case 9 -> federatedChain();
      case 10 -> javaCall();
      case 11 -> new Typed(SQUARE, SQUARE.type());
      default -> genericZero();
    };
  }

  private Typed literal() {
    DType[] dtypes = {DType.FLOAT32, DType.INT32, DType.BOOL, DType.FLOAT64, DType.INT64,
        DType.UINT8, DType.FLOAT16, DType.COMPLEX64, DType.STRING, DType.UINT64, DType.BFLOAT16};
    DType d = dtypes[random.nextInt(dtypes.length)];
    long[] dims = random.nextBoolean() ? new long[0] : new long[] {random.nextInt(4)};
    TensorBuilder b = TensorBuilder.allocate(d, Shape.of(dims));
    for (long i = 0; i < b.shape().size(); i++) {
      switch (d) {
        case STRING -> b.setString(i, "s" + random.nextInt(100) + "é");
        case COMPLEX64 -> b.setComplex(i, random.nextInt(9), -random.nextInt(9));
        case UINT64 -> b.setLong(i, random.nextLong());
        case INT64 -> b.setLong(i, random.nextLong());
        default -> b.setFromDouble(i, random.nextInt(200) - 100);
      }
    }
    Literal l = new Literal(b.build());
    return new Typed(l, TensorType.of(d, dims));
  }

  private Typed reference(List<Binding> env) {
    Binding b = env.get(random.nextInt(env.size()));
    Binding visible = b;
    for (Binding x : env) {
      if (x.name().equals(b.name())) {
        visible = x;
      }
    }
    return new Typed(new Reference(visible.name()), visible.type());
  }

  private Typed struct(int depth, List<Binding> env) {
    int n = random.nextInt(4);
    List<Struct.Element> elements = new ArrayList<>();
    List<StructType.Element> elementTypes = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < n; i++) {
      Typed v = gen(depth - 1, env);
      Optional<String> name = Optional.empty();
      if (random.nextBoolean() && names.add("e" + i)) {
        name = Optional.of("e" + i);
      }
      elements.add(new Struct.Element(name, v.block()));
      elementTypes.add(new StructType.Element(name, v.type()));
    }
    return new Typed(new Struct(elements), new StructType(elementTypes));
  }

  private Typed selection(int depth, List<Binding> env) {
    Typed s = struct(depth, env);
    StructType st = (StructType) s.type();
    if (st.size() == 0) {
      return s;
    }
    int i = random.nextInt(st.size());
    return new Typed(Selection.byIndex(s.block(), i), st.get(i));
  }

  private Typed lambda(int depth, List<Binding> env) {
    Type param = types.local(2);
    String name = "p" + random.nextInt(3);
    List<Binding> inner = new ArrayList<>(env);
    inner.add(new Binding(name, param));
    Typed body = gen(depth - 1, inner);
    return new Typed(Lambda.of(name, param, body.block()), FunctionType.of(param, body.type()));
  }

  private Typed call(int depth, List<Binding> env) {
    Typed arg = gen(depth - 1, env);
    String name = "p" + random.nextInt(3);
    List<Binding> inner = new ArrayList<>(env);
    inner.add(new Binding(name, arg.type()));
    Typed body = gen(depth - 1, inner);
    if (random.nextInt(4) == 0) {
      Typed closed = gen(depth - 1, env);
      return new Typed(Call.withoutArgument(Lambda.noParameter(closed.block())), closed.type());
    }
    return new Typed(Call.of(Lambda.of(name, arg.type(), body.block()), arg.block()),
        body.type());
  }

  private Typed block(int depth, List<Binding> env) {
    int n = 1 + random.nextInt(3);
    List<Binding> inner = new ArrayList<>(env);
    List<Block.Local> locals = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Typed v = gen(depth - 1, inner);
      String name = "l" + i;
      locals.add(new Block.Local(name, v.block()));
      inner.add(new Binding(name, v.type()));
    }
    Typed result = gen(depth - 1, inner);
    return new Typed(new Block(locals, result.block()), result.type());
  }

  private Typed intrinsicCall(IntrinsicDef def, Typed arg) {
    Specialization s = def.specialize(Optional.of(arg.type()));
    FunctionType ft = ((Specialization.Success) s).type();
    return new Typed(Call.of(new Intrinsic(def.uri(), ft), arg.block()), ft.result());
  }

  private Typed federatedChain() {
    Typed value = new Typed(new Literal(TensorBuilder.allocate(DType.FLOAT32, Shape.of(2))
        .setFloat(0, random.nextFloat()).build()), TensorType.of(DType.FLOAT32, 2));
    Typed server = intrinsicCall(IntrinsicCatalogue.FEDERATED_VALUE_AT_SERVER, value);
    Typed clients = intrinsicCall(IntrinsicCatalogue.FEDERATED_BROADCAST, server);
    return switch (random.nextInt(4)) {
      case 0 -> clients;
      case 1 -> intrinsicCall(IntrinsicCatalogue.FEDERATED_MEAN, clients);
      case 2 -> intrinsicCall(IntrinsicCatalogue.FEDERATED_ZIP_AT_CLIENTS,
          new Typed(Struct.of(clients.block(), clients.block()),
              StructType.of(clients.type(), clients.type())));
      default -> intrinsicCall(IntrinsicCatalogue.FEDERATED_SUM, clients);
    };
  }

  private Typed javaCall() {
    Typed x = new Typed(new Literal(TensorBuilder.allocate(DType.FLOAT32, Shape.scalar())
        .setFloat(0, 2f).build()), TensorType.of(DType.FLOAT32));
    return new Typed(Call.of(SQUARE, x.block()), SQUARE.type().result());
  }

  private Typed genericZero() {
    Type t = Types.parse("<float32[2],int32>");
    return new Typed(new Intrinsic("generic_zero", t), t);
  }
}
