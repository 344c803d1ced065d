/**
 * JMH benchmarks. Each is run beside its anchor (numpy, protobuf-java, a memory copy) by the
 * scripts in {@code tributary-benchmarks/scripts}, and reported as a ratio in
 * {@code docs/benchmarks.md}.
 */
package io.tributary.bench;
