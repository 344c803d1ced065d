/**
 * How the SuperNode speaks the Fleet API: the RPC stubs' use, Flower's object store encoding
 * and content addressing, node authentication's signed metadata, OpenSSH key parsing, run
 * configs in Flower's TOML/JSON forms. Not an API; use {@link io.tributary.flower.fleet}.
 */
package io.tributary.flower.fleet.internal;
