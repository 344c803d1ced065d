package io.tributary.privacy;

/** How each round's participants are drawn, which decides the amplification the RDP gets. */
public enum Sampling {
  /** Each client independently with probability q (add-or-remove-one neighbours). */
  POISSON,
  /** A uniformly random cohort of fixed size m of n clients, q = m/n (replace-one neighbours). */
  FIXED_SIZE
}
