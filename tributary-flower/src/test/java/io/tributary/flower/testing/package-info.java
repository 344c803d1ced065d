/**
 * Test support for the Flower transport: a scripted in-process Flower server, and a Java client
 * that counts the training it is asked for.
 */
package io.tributary.flower.testing;
