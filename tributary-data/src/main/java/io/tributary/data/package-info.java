/**
 * Datasets for local training: {@link io.tributary.data.Dataset} (float32 features and int64
 * labels, iterated as {@link io.tributary.data.Batch}es), the embedded
 * {@link io.tributary.data.Digits} data, the FedProx {@link io.tributary.data.Synthetic}
 * generators, {@link io.tributary.data.Idx} and {@link io.tributary.data.CsvLoader} readers, and
 * seeded {@link io.tributary.data.Partitioner}s that split data among clients.
 *
 * <p>A federated dataset of the user's is a {@link io.tributary.data.FederatedSource}: clients
 * held, made or read on demand, or read from a file client by client ({@link
 * io.tributary.data.CsvClients}, {@link io.tributary.data.ParquetClients}, {@link
 * io.tributary.data.NpzClients}), every row checked before any training starts; the CSV and
 * Parquet readers' builders share their options as a {@link
 * io.tributary.data.ClientTableOptions} record.
 *
 * <pre>{@code
 * try (ParquetClients clients = ParquetClients.builder(Path.of("readings.parquet"))
 *     .clientColumn("device").labelColumn("activity").seed(7).open()) {
 *   Dataset first = clients.client(0);         // read back from the spill file
 *   Dataset test = clients.test();             // 20% of each client's rows, pooled
 * } catch (DatasetFormatException e) {
 *   System.err.println(e.getMessage());        // readings.parquet: row 12: column 'x': 'NaN' ...
 * }
 * }</pre>
 *
 * <p>Every random choice takes an explicit seed and uses its own
 * {@link java.util.SplittableRandom}; nothing here keeps global or static mutable state.
 */
package io.tributary.data;
