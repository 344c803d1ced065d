/**
 * The sinks: how a client pass folds clients' values into each aggregation's result.
 *
 * <p>A {@link Sink} keeps a partial result per
 * group of consecutive clients and combines the groups' partials as the pass's fixed reduction
 * tree says: {@link LinearSink} for sums and
 * (weighted) means, secure sums included ({@link SecureMode} says where their inputs go),
 * {@link MinMaxSink},
 * {@link AggregateSink} for
 * {@code federated_aggregate} and {@link CollectSink}
 * for {@code federated_collect}; {@link PerEdgeSink} runs any of them once per edge, for the
 * aggregations to the EDGES placement. Internal to tributary-runtime: public only so that the executor
 * packages can share them.
 */
package io.tributary.runtime.executor.internal.aggregation;
