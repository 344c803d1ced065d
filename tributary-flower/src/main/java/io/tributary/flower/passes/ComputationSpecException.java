package io.tributary.flower.passes;

import java.util.Optional;

/**
 * The computation spec in a message's config cannot be used: a key missing or of the wrong type,
 * an unknown algorithm, a hyperparameter it does not take or out of range, a model type that is
 * not a struct of floating-point tensors of known shape, or a value over its bound. The message
 * names the key ({@link #key}) and what was wrong.
 */
public final class ComputationSpecException extends NodeComputationException {
  private static final long serialVersionUID = 1L;

  /** The config key at fault; empty when the spec as a whole is (an unknown algorithm). */
  private final String key;

  public ComputationSpecException(String key, String message, Throwable cause) {
    super(key == null ? message : key + ": " + message, cause);
    this.key = key;
  }

  public ComputationSpecException(String key, String message) {
    this(key, message, null);
  }

  /** The config key at fault, if one is. */
  public Optional<String> key() {
    return Optional.ofNullable(key);
  }
}
