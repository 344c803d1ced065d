/**
 * Tests written from a user's point of view, outside {@code io.tributary.core}, so that
 * definition-time errors point at these files the way they would point at user code.
 */
package io.tributary.examples;
