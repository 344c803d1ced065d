/**
 * The internals of SecAgg+: X25519 key agreement and HKDF ({@link
 * io.tributary.privacy.secagg.internal.Keys}), AES-GCM for the shares ({@link
 * io.tributary.privacy.secagg.internal.ShareCipher}), the AES-CTR generator that expands seeds
 * into masks ({@link io.tributary.privacy.secagg.internal.MaskGenerator}), Shamir secret sharing
 * ({@link io.tributary.privacy.secagg.internal.Shamir}) and the communication graph ({@link
 * io.tributary.privacy.secagg.internal.CommunicationGraph}). The primitives are the JDK's and
 * Bouncy Castle's; only Shamir's polynomial arithmetic is written here.
 */
package io.tributary.privacy.secagg.internal;
