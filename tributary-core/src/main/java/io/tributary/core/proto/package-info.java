/**
 * Conversion between Federated Core types and computations and their protobuf form, which
 * follows federated-language's public {@code computation.proto} (same proto package, message
 * names and field numbers) plus Tributary's {@code local_computation = 1000} oneof field.
 *
 * <p>The public methods deal in bytes; the generated classes live in
 * {@code io.tributary.core.proto.internal} and appear in no public signature. Reading validates
 * everything: a malformed or ill-typed message raises
 * {@link io.tributary.core.proto.MalformedComputationException} naming the path and the
 * problem.
 */
package io.tributary.core.proto;
