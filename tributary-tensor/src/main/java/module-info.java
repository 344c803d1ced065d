/**
 * Tensors, the array formats (npy, npz, the protobuf and numpy ndarray serializers) and the
 * serializer registry.
 */
module io.tributary.tensor {
  // Optional: a rank-one difference's sum runs on the Vector API when the JVM adds it.
  requires static jdk.incubator.vector;

  exports io.tributary.tensor;
  exports io.tributary.tensor.npy;
  exports io.tributary.tensor.serialization;

  uses io.tributary.tensor.serialization.Serializer;

  provides io.tributary.tensor.serialization.Serializer with
      io.tributary.tensor.serialization.NumpyNdarraySerializer,
      io.tributary.tensor.serialization.ProtoNdarraySerializer;
}
