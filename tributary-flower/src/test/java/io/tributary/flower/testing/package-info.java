/** Test support for the Flower transport: a scripted in-process Flower server. */
package io.tributary.flower.testing;
