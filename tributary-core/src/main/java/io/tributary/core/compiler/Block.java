package io.tributary.core.compiler;

import java.util.List;
import java.util.Objects;

/**
 * Local definitions followed by a result, with LET* scoping: each local may refer to the locals
 * before it, and the result to all of them. Printed {@code (let a=x,b=f(a) in g(b))}.
 *
 * @param locals the definitions in order; names are distinct
 * @param result the value of the block
 */
public record Block(List<Local> locals, BuildingBlock result) implements BuildingBlock {
  /** One definition {@code name=value}. */
  public record Local(String name, BuildingBlock value) {
    public Local {
      Identifiers.requireVariable(name, "block local name");
      Objects.requireNonNull(value, "value");
    }
  }

  public Block {
    locals = List.copyOf(locals);
    Objects.requireNonNull(result, "result");
  }

  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }
}
