/** Implementation of the Flower transport; generated protobuf messages live in {@code .proto}. */
package io.tributary.flower.internal;
