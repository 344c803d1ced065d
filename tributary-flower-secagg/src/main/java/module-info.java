/** Flower's SecAgg+ on the server, found by the server through {@code ServiceLoader}. */
module io.tributary.flower.secagg {
  requires transitive io.tributary.flower;
  requires transitive io.tributary.privacy;
  requires transitive io.tributary.tensor;

  exports io.tributary.flower.secagg;

  provides io.tributary.flower.server.SecureFitProtocol with
      io.tributary.flower.secagg.SecAggServerProtocol;
  provides io.tributary.flower.passes.SecurePassProtocol with
      io.tributary.flower.secagg.SecAggPasses;
}
