/** Graphs of operations, automatic differentiation, optimizers, models and local training. */
module io.tributary.graph {
  requires transitive io.tributary.tensor;
  requires transitive io.tributary.core;
  // flatbuffers-java has no module name in any release (its name is derived from the jar's).
  requires flatbuffers.java;
  requires org.bytedeco.javacpp;
  requires org.bytedeco.openblas;
  // Optional: VectorGemm runs when the JVM adds the incubating Vector API, Gemm falls back without.
  requires static jdk.incubator.vector;

  exports io.tributary.graph;
  exports io.tributary.graph.autodiff;
  exports io.tributary.graph.local;
  exports io.tributary.graph.models;
  exports io.tributary.graph.ops;
  exports io.tributary.graph.optim;
  exports io.tributary.graph.training;
}
