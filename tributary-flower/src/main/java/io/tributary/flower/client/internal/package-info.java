/**
 * Implementation of the Java Flower client: one {@code Join} stream ({@link
 * io.tributary.flower.client.internal.JoinSession}), the answer to each server instruction ({@link
 * io.tributary.flower.client.internal.InstructionHandler}) and channel set-up.
 */
package io.tributary.flower.client.internal;
