package io.tributary.format;

/** A FlatBuffer entry whose offsets, vectors or strings fail verification, or that is not the table expected. */
public final class FlatBufferVerificationException extends ModelFormatException {
  private static final long serialVersionUID = 1L;

  public FlatBufferVerificationException(String entry, String problem) {
    super(entry, problem);
  }
}
