/** Differential privacy (clipping, noise, the RDP accountant, DP aggregators) and SecAgg+. */
module io.tributary.privacy {
  requires transitive io.tributary.tensor;
  requires transitive io.tributary.core;
  requires transitive io.tributary.runtime;
  requires transitive io.tributary.learning;
  requires org.apache.commons.numbers.gamma;
  requires org.bouncycastle.provider;

  exports io.tributary.privacy;
  exports io.tributary.privacy.aggregation;
  exports io.tributary.privacy.secagg;
}
