/**
 * Java classes that protoc generates from {@code flwr/proto/parameters.proto} for the tests, which
 * check the hand-written codec against them; no main code uses them.
 */
package io.tributary.tensor.serialization.internal.proto;
