/**
 * The model file: Deeplearning4j's ADR 0001 layout (a zip of tags, each with a graph,
 * parameters, updater state and training configuration), built to be safe.
 *
 * <p>Read with {@link io.tributary.format.ModelFile} and {@link io.tributary.format.ModelTag};
 * write with {@link io.tributary.format.ModelWriter} and {@link io.tributary.format.TagContents},
 * or add tags one after another, each at its own cost, with {@link
 * io.tributary.format.ModelAppender}. Saves are atomic, additions journaled; reads check every size, name, offset and reference before using it and
 * report problems as {@link io.tributary.format.ModelFormatException}s that name the entry.
 * The layout is described in {@code docs/model-format.md}.
 */
package io.tributary.format;
