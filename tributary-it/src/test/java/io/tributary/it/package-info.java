/**
 * Integration tests of Tributary as a library: the artifacts {@code ./mvnw install} gives (jars,
 * sources and javadoc jars, POMs, the BOM), the example project under {@code examples/} built
 * against them, and a library program on a plain JVM.
 */
package io.tributary.it;
