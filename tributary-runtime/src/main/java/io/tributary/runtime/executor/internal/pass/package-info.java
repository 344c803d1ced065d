/**
 * The client pass: one sweep over the clients that feeds several aggregations at once.
 *
 * <p>{@link ClientPass} cuts the clients into groups,
 * computes them on a bounded pool and combines the groups' partials with the fixed reduction
 * tree; {@link ClientCosts} orders the clients by their
 * in-memory bytes, {@link TiledKernel} computes sums
 * and means of values already in memory tile by tile.
 * {@link PassReplay} is a
 * pass engine worker's side of an invocation, and
 * {@link PassCodec} the bytes between driver and
 * workers; {@link SecurePasses} are passes whose secure sums run where the clients are, and
 * {@link InputsCodec} the bytes of a pass's client-side inputs for a node. Internal to tributary-runtime: public only so that the executor packages can share
 * them.
 */
package io.tributary.runtime.executor.internal.pass;
