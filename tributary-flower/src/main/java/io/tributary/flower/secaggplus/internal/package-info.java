/**
 * The pieces of Flower 1.27's SecAgg+ protocol as its {@code secaggplus_mod} and
 * {@code SecAggPlusWorkflow} put them on the wire: P-384 keys in PEM, ECDH with HKDF-SHA256 into a
 * Fernet key, Fernet tokens, Shamir shares over GF(2^128) in PyCryptodome's layout, numpy's legacy
 * {@code RandomState} masks and the quantization. Used by
 * {@link io.tributary.flower.app.mod.SecAggPlusMod}; not an API.
 */
package io.tributary.flower.secaggplus.internal;
