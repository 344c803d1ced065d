/**
 * Internal: the zip reader and writer, the FlatBuffers verifier and the codecs of the model
 * file's entries. Nothing here is part of the public API.
 */
package io.tributary.format.internal;
