/**
 * Java classes that protoc generates from {@code flwr/proto/parameters.proto}; not public API,
 * and kept off the serializers' hot path.
 */
package io.tributary.tensor.serialization.internal.proto;
