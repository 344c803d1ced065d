/** Flower's protocols: the server, the client, the Fleet API, SecAgg+ and the relay. */
// protobuf-java and gRPC have no descriptors but declare their module names
// (Automatic-Module-Name), as stable as a descriptor's; javac warns of every automatic module
// alike. A name derived from a jar's file name still warns, from the compiler plugin.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.tributary.flower {
  requires transitive io.tributary.tensor;
  requires transitive io.tributary.core;
  requires transitive io.tributary.runtime;
  requires transitive io.tributary.learning;
  requires transitive io.tributary.format;
  requires com.google.protobuf;
  requires transitive io.grpc;
  requires io.grpc.netty.shaded;
  requires io.grpc.protobuf;
  requires io.grpc.stub;
  requires org.slf4j;
  requires transitive java.net.http;
  requires jdk.httpserver;
  requires org.bouncycastle.provider;

  exports io.tributary.flower;
  exports io.tributary.flower.app;
  exports io.tributary.flower.app.mod;
  exports io.tributary.flower.fleet;
  exports io.tributary.flower.fleet.server;
  exports io.tributary.flower.passes;
  exports io.tributary.flower.records;
  exports io.tributary.flower.relay;
  exports io.tributary.flower.secaggplus;
  exports io.tributary.flower.server;

  // protobuf's reflective operations (toString, getAllFields) call the generated classes'
  // methods through its field accessors.
  opens io.tributary.flower.internal.proto to com.google.protobuf;
  opens io.tributary.flower.fleet.internal.proto to com.google.protobuf;

  uses io.tributary.flower.server.SecureFitProtocol;
  uses io.tributary.flower.passes.SecurePassProtocol;
  uses io.tributary.flower.passes.ComposedAlgorithms;
}
