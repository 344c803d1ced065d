package io.tributary.tensor.npy;

/**
 * An NPY dtype that Tributary cannot hold (object, structured, datetime, void, long double), or
 * a Tributary dtype that numpy cannot hold (bfloat16).
 */
public final class NpyUnsupportedDtypeException extends NpyException {
  private final String dtype;

  public NpyUnsupportedDtypeException(String dtype, String message) {
    super(message);
    this.dtype = dtype;
  }

  private NpyUnsupportedDtypeException(String dtype, String message, NpyUnsupportedDtypeException cause) {
    super(message, cause);
    this.dtype = dtype;
  }

  /** The offending dtype: the NPY descr text such as {@code |O}, or a Tributary dtype name. */
  public String dtype() {
    return dtype;
  }

  @Override
  public NpyUnsupportedDtypeException in(String source) {
    return new NpyUnsupportedDtypeException(dtype, source + ": " + getMessage(), this);
  }
}
