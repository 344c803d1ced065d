/**
 * FEP-0002 parameter serialization: the {@link io.tributary.tensor.serialization.Serializer} SPI,
 * the built-in {@code numpy.ndarray} and {@code proto.ndarray} formats, the
 * {@link io.tributary.tensor.serialization.SerializerRegistry} that finds serializers through
 * {@link java.util.ServiceLoader}, and the {@code Parameters} message itself.
 *
 * <p>Errors are checked {@link io.tributary.tensor.serialization.SerializationException}s that
 * name the offending tensor. The wire mapping of every dtype is documented in
 * docs/serialization.md.
 */
package io.tributary.tensor.serialization;
