/** Datasets and their partitions: the bundled sets, CSV, npz directories and Parquet. */
// Hardwood has no descriptor but declares its module name (Automatic-Module-Name), as stable as
// a descriptor's; javac warns of every automatic module alike.
@SuppressWarnings("requires-automatic")
module io.tributary.data {
  requires transitive io.tributary.tensor;
  requires dev.hardwood.core;

  exports io.tributary.data;
}
