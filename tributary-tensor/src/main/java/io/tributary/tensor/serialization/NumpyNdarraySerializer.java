package io.tributary.tensor.serialization;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.NpyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * FEP-0002's {@code numpy.ndarray}, Flower's own format: one NPY blob per tensor in
 * {@link Parameters#tensors()}, exactly as {@code np.save(allow_pickle=False)} writes it.
 *
 * <p>This is what a Python Flower client reads (it ignores {@code tensor_type} and calls
 * {@code np.load} on every tensor), so it is the format for talking to one. NPY holds no names:
 * {@link #serializeNamed} drops them and {@link #deserializeNamed} returns {@code arr_0},
 * {@code arr_1}, ... bfloat16, which numpy lacks, cannot be serialized. Field 3
 * ({@code values}) is ignored on read.
 */
public final class NumpyNdarraySerializer implements Serializer {
  /** The tensor type this serializer writes and reads. */
  public static final String TENSOR_TYPE = "numpy.ndarray";

  /** Public for {@link java.util.ServiceLoader}. */
  public NumpyNdarraySerializer() {}

  @Override
  public String tensorType() {
    return TENSOR_TYPE;
  }

  /**
   * Serializes each tensor as an NPY blob.
   *
   * @throws SerializationException naming the tensor whose dtype NPY cannot hold (bfloat16)
   */
  @Override
  public Parameters serialize(List<Tensor> tensors) throws SerializationException {
    List<byte[]> blobs = new ArrayList<>(tensors.size());
    for (int i = 0; i < tensors.size(); i++) {
      try {
        blobs.add(Npy.toBytes(Objects.requireNonNull(tensors.get(i), "tensor")));
      } catch (NpyException e) {
        throw new SerializationException(i, "cannot write as NPY: " + e.getMessage(), e);
      }
    }
    return Parameters.ofTensors(TENSOR_TYPE, blobs);
  }

  /**
   * Reads each NPY blob; pickled (object) arrays are refused, never unpickled.
   *
   * @throws SerializationException naming the index of a blob that is not a valid NPY array
   */
  @Override
  public List<Tensor> deserialize(Parameters parameters) throws SerializationException {
    if (!canHandle(parameters.tensorType())) {
      throw new UnsupportedTensorTypeException(parameters.tensorType(), List.of(TENSOR_TYPE));
    }
    List<Tensor> tensors = new ArrayList<>(parameters.tensors().size());
    for (int i = 0; i < parameters.tensors().size(); i++) {
      try {
        // Parameters' arrays are handed over and never written again, so tensors may view them.
        tensors.add(Npy.view(parameters.tensors().get(i)));
      } catch (NpyException e) {
        throw new SerializationException(i, "malformed NPY blob: " + e.getMessage(), e);
      }
    }
    return tensors;
  }
}
