package io.tributary.privacy.secagg;

/** The four stages of a SecAgg+ round, in order; a client that drops out misses the rest. */
public enum SecAggStage {
  /** Clients send their two public keys; the server hands each its neighbours' keys. */
  ADVERTISE_KEYS,
  /** Clients send encrypted shares of their secrets; the server routes them to the neighbours. */
  SHARE_KEYS,
  /** Clients send their masked inputs; the server asks the survivors to help unmask. */
  MASKED_INPUT,
  /** Survivors send the shares the server needs; the server removes the masks and sums. */
  UNMASK
}
