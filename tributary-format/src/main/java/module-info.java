/** The model file format: {@code model.zip} with its FlatBuffers array headers and settings. */
module io.tributary.format {
  requires transitive io.tributary.tensor;
  // flatbuffers-java has no module name in any release (its name is derived from the jar's).
  requires flatbuffers.java;

  exports io.tributary.format;
}
