/**
 * Flower's records and messages as Java values: {@link io.tributary.flower.records.Message} with
 * its {@link io.tributary.flower.records.Metadata}, and the content
 * {@link io.tributary.flower.records.RecordDict} of
 * {@link io.tributary.flower.records.ArrayRecord}s,
 * {@link io.tributary.flower.records.MetricRecord}s and
 * {@link io.tributary.flower.records.ConfigRecord}s, as Flower 1.27's Message API defines them.
 * All of them are immutable and keep their keys in insertion order, as Flower's dicts do: the
 * order is part of their object ids on the wire.
 */
package io.tributary.flower.records;
