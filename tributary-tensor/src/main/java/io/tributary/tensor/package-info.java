/**
 * Tensors: {@link io.tributary.tensor.DType}, {@link io.tributary.tensor.Shape} and the
 * immutable {@link io.tributary.tensor.Tensor}, built through
 * {@link io.tributary.tensor.TensorBuilder}.
 *
 * <p>Fixed-width data is little-endian, row-major and stored in chunks addressed by {@code long},
 * so tensors can exceed 2 GiB. Reshape and slice share storage.
 */
package io.tributary.tensor;
