package io.tributary.core.compiler;

import io.tributary.core.types.Type;
import java.util.Objects;

/**
 * A use of a built-in federated operator, with the concrete type it is used at.
 *
 * <p>The {@code uri} names an entry of {@link IntrinsicCatalogue} (such as
 * {@code federated_mean}); the checker verifies that {@code type} is an instance of that entry's
 * template signature.
 *
 * @param uri the intrinsic's federated-language URI
 * @param type the concrete type, for example {@code ({float32}@CLIENTS -> float32@SERVER)}
 */
public record Intrinsic(String uri, Type type) implements BuildingBlock {
  public Intrinsic {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(type, "type");
    if (uri.isEmpty()) {
      throw new IllegalArgumentException("intrinsic uri is empty");
    }
  }

  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }
}
