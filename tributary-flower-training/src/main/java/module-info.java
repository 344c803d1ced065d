/** A Flower client whose fit runs the simulator's graph-backed client update. */
module io.tributary.flower.training {
  requires transitive io.tributary.flower;
  requires transitive io.tributary.tensor;
  requires transitive io.tributary.core;
  requires transitive io.tributary.data;
  requires transitive io.tributary.graph;
  requires io.tributary.learning.graph;

  exports io.tributary.flower.training;
}
