/**
 * Run-time values of Federated Core types shared by every module that runs local computations.
 *
 * <p>The representation: a tensor type's value is an {@code io.tributary.tensor.Tensor}; a struct
 * type's value a {@link io.tributary.core.values.StructValue}; a sequence type's value an
 * {@link java.lang.Iterable} whose elements are values of the element type and which can be
 * iterated more than once.
 */
package io.tributary.core.values;
