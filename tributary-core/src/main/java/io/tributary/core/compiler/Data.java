package io.tributary.core.compiler;

import io.tributary.core.types.Type;
import java.util.Objects;

/**
 * An external source of data, named by a URI that the runtime interprets.
 *
 * @param uri what to read, for example {@code "file:///data/train"}
 * @param type the type of the data
 */
public record Data(String uri, Type type) implements BuildingBlock {
  public Data {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(type, "type");
    if (uri.isEmpty()) {
      throw new IllegalArgumentException("data uri is empty");
    }
  }

  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }
}
