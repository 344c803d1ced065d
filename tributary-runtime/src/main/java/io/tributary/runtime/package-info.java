/**
 * Running federated computations on one machine: {@link io.tributary.runtime.ExecutionContext}
 * invokes a {@link io.tributary.core.computation.Computation} on Java values, with
 * {@link io.tributary.runtime.RuntimeOptions} for the thread pool, per-client timeout, failure
 * tolerance, seed, population and each client's {@link io.tributary.runtime.Edges edge}.
 *
 * <p>Values: tensors are {@link io.tributary.tensor.Tensor}s, structs
 * {@link io.tributary.core.values.StructValue}s, sequences {@link java.lang.Iterable}s, and a
 * {@code {T}@CLIENTS} value a list or {@link io.tributary.runtime.ClientValues}. Failures are
 * typed: {@link io.tributary.runtime.ClientFailureException} names the client and the intrinsic.
 *
 * <p>Client passes may run elsewhere: with
 * {@link io.tributary.runtime.RuntimeOptions#withPassEngine} a
 * {@link io.tributary.runtime.PassEngine} (a cluster binding such as Spark) computes each pass
 * in parts, its workers calling {@link io.tributary.runtime.ExecutionContext#computePassPart},
 * and the parts merge with the pass's {@link io.tributary.runtime.ReductionTree} to the bits a
 * local run gives. Workers that may not learn the server's state (nodes) replay from the pass's
 * {@link io.tributary.runtime.PassInputs} alone, and an engine that
 * {@link io.tributary.runtime.PassEngine#runsSecureSums runs secure sums} has each client hand its
 * secure-sum input to a {@link io.tributary.runtime.SecureSumClient} instead of its part.
 *
 * <pre>{@code
 * RuntimeOptions options = RuntimeOptions.defaults().withThreads(4).withSeed(7)
 *     .withMinSuccessFraction(0.8);            // leave out failed clients, up to 20%
 * try (ExecutionContext context = ExecutionContext.create(options)) {
 *   Object mean = context.invoke(computation, List.of(t1, t2, t3)); // {float32}@CLIENTS
 * }
 * }</pre>
 */
package io.tributary.runtime;
