/**
 * Datasets for local training: {@link io.tributary.data.Dataset} (float32 features and int64
 * labels, iterated as {@link io.tributary.data.Batch}es), the embedded
 * {@link io.tributary.data.Digits} data, the FedProx {@link io.tributary.data.Synthetic}
 * generators, {@link io.tributary.data.Idx} and {@link io.tributary.data.CsvLoader} readers, and
 * seeded {@link io.tributary.data.Partitioner}s that split data among clients.
 *
 * <p>Every random choice takes an explicit seed and uses its own
 * {@link java.util.SplittableRandom}; nothing here keeps global or static mutable state.
 */
package io.tributary.data;
