/**
 * Tensors: {@link io.tributary.tensor.DType}, {@link io.tributary.tensor.Shape} and the
 * immutable {@link io.tributary.tensor.Tensor}, built through
 * {@link io.tributary.tensor.TensorBuilder}.
 *
 * <p>Fixed-width data is little-endian, row-major and stored in chunks addressed by {@code long},
 * so tensors can exceed 2 GiB. Reshape and slice share storage. A
 * {@link io.tributary.tensor.Tensor#difference difference} of two lent arrays makes its storage
 * only when read: sums ({@link io.tributary.tensor.TensorMath}) and finiteness checks
 * ({@link io.tributary.tensor.Finite}) read the two arrays in place.
 */
package io.tributary.tensor;
