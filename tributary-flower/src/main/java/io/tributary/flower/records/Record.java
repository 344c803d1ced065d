package io.tributary.flower.records;

/** One of the three kinds of record a {@link RecordDict} holds. */
public sealed interface Record permits ArrayRecord, MetricRecord, ConfigRecord {}
