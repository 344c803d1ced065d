/** Datasets and their partitions: the bundled sets, CSV, npz directories and Parquet. */
module io.tributary.data {
  requires transitive io.tributary.tensor;
  requires dev.hardwood.core;

  exports io.tributary.data;
}
