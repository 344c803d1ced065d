/** The federated computation model: types, values, computations, the compiler and their protos. */
// protobuf-java has no descriptor but declares its module name (Automatic-Module-Name), as stable
// as a descriptor's; javac warns of every automatic module alike. A name derived from a jar's
// file name still warns, from the compiler plugin (flatbuffers-java: docs/architecture.md).
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.tributary.core {
  requires transitive io.tributary.tensor;
  requires transitive com.google.protobuf;

  exports io.tributary.core.compiler;
  exports io.tributary.core.computation;
  exports io.tributary.core.proto;
  exports io.tributary.core.types;
  exports io.tributary.core.values;

  // protobuf's reflective operations (toString, getAllFields) call the generated classes'
  // methods through its field accessors.
  opens io.tributary.core.proto.internal to com.google.protobuf;
}
