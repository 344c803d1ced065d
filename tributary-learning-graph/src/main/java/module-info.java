/** Federated algorithms over graph-backed local training, and datasets as sequence values. */
module io.tributary.learning.graph {
  requires transitive io.tributary.learning;
  requires transitive io.tributary.graph;
  requires transitive io.tributary.data;
  requires transitive io.tributary.core;
  requires transitive io.tributary.tensor;

  exports io.tributary.learning.graph;
}
