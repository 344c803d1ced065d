/**
 * Wire-level helpers behind the FEP-0002 serializers: the hand-written {@code Value} codec, a
 * bounds-checked protobuf reader and an exact-size writer. Not public API.
 *
 * <p>The generated protobuf classes in the {@code proto} subpackage are used only by tests, as
 * the reference the hand-written codec is checked against.
 */
package io.tributary.tensor.serialization.internal;
