package io.tributary.tensor.serialization;

import java.util.List;

/** A {@code tensor_type} that no serializer at hand can handle; names it and those available. */
public final class UnsupportedTensorTypeException extends SerializationException {
  private static final long serialVersionUID = 1L;

  private final String tensorType;
  private final List<String> available;

  /**
   * @param tensorType the type asked for
   * @param available the types that could have been handled
   */
  public UnsupportedTensorTypeException(String tensorType, List<String> available) {
    super("unsupported tensor_type '" + tensorType + "'; available: "
        + (available.isEmpty() ? "none" : String.join(", ", available)));
    this.tensorType = tensorType;
    this.available = List.copyOf(available);
  }

  /** The tensor type that was asked for. */
  public String tensorType() {
    return tensorType;
  }

  /** The tensor types that could have been handled. */
  public List<String> available() {
    return available;
  }
}
