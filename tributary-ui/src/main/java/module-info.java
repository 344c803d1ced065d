/** The live web page of a run or a SuperNode. */
module io.tributary.ui {
  requires transitive io.tributary.learning;
  requires transitive io.tributary.tensor;
  // Optional: NodeView observes a SuperNode; LiveView alone does not need flower.
  requires static transitive io.tributary.flower;

  exports io.tributary.ui;
}
