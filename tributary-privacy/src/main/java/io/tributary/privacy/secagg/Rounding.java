package io.tributary.privacy.secagg;

/** How {@link Quantizer} rounds a scaled value to an integer. */
public enum Rounding {
  /**
   * Up with probability equal to the fractional part, down otherwise: unbiased (the expected
   * quantized value is the scaled value itself), with randomness from the client's generator.
   */
  STOCHASTIC,
  /** To the nearest integer, halves up: deterministic, with a bias of at most half a step. */
  NEAREST
}
