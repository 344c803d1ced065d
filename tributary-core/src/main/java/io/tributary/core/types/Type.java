package io.tributary.core.types;

/**
 * A type of the Federated Core language.
 *
 * <p>Each kind is a small record; the {@code toString} of every kind is its compact notation, as
 * printed by {@link Types#print(Type)}.
 */
public sealed interface Type
    permits TensorType,
        SequenceType,
        StructType,
        FunctionType,
        PlacementType,
        FederatedType,
        AbstractType {

  /**
   * The compact notation of this type, such as {@code {float32}@CLIENTS}, cut after 4,096
   * characters with {@code ...} (for messages: {@link Types#print} prints it whole).
   */
  default String compact() {
    return TypePrinter.print(this, TypePrinter.COMPACT_LIMIT);
  }
}
