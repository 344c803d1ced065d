/** Test support: locating Python for interop tests against numpy and protobuf. */
package io.tributary.tensor.testing;
