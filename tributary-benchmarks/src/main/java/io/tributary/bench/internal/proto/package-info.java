/**
 * Java classes that protoc generates from the benchmarks' copy of FEP-0002's {@code Value}
 * message ({@code src/main/proto/tributary/bench/value_anchor.proto}), the anchor of
 * {@code ProtoValueBenchmark}.
 */
package io.tributary.bench.internal.proto;
