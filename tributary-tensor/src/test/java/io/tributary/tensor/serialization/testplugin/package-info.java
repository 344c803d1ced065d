/** Serializers that stand in for third-party plugins in the discovery tests. */
package io.tributary.tensor.serialization.testplugin;
