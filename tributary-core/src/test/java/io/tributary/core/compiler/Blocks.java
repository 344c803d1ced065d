package io.tributary.core.compiler;

import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import java.util.List;

/** Short helpers for building computations in tests. */
final class Blocks {
  private Blocks() {}

  static Type t(String compact) {
    return Types.parse(compact);
  }

  static Reference ref(String name) {
    return new Reference(name);
  }

  static Lambda lambda(String name, String type, BuildingBlock body) {
    return Lambda.of(name, t(type), body);
  }

  static Intrinsic intrinsic(String uri, String type) {
    return new Intrinsic(uri, t(type));
  }

  static Call call(BuildingBlock fn, BuildingBlock arg) {
    return Call.of(fn, arg);
  }

  static Block let(List<Block.Local> locals, BuildingBlock result) {
    return new Block(locals, result);
  }

  static Block.Local local(String name, BuildingBlock value) {
    return new Block.Local(name, value);
  }

  static JavaFunction java(String name, String type) {
    return new JavaFunction(name, (FunctionType) t(type), arg -> arg);
  }
}
