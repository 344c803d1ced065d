/**
 * An example application that uses Tributary's library modules through tributary-bom. Run it
 * with {@code --add-modules jdk.incubator.vector} (JDK 22+), as the README recommends for
 * training: the same results as a plain {@code java -cp}, with the matrix kernels on the Vector
 * API.
 */
package com.example.simulation;
