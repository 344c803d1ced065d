/** Executing federated computations: the executor stack, passes, aggregation and secure sums. */
module io.tributary.runtime {
  requires transitive io.tributary.tensor;
  requires transitive io.tributary.core;
  requires org.slf4j;

  exports io.tributary.runtime;
  exports io.tributary.runtime.executor;
}
