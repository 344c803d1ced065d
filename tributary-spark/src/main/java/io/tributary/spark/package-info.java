/**
 * Federated simulations on Apache Spark with the bits of the local runtime: {@link
 * io.tributary.spark.SparkPassEngine} computes a client pass's groups on Spark's executors, and
 * {@link io.tributary.spark.LoopbackCluster} starts a standalone cluster on this machine.
 */
package io.tributary.spark;
