/**
 * The live view's parts: the bounded run state, the read-only HTTP server with its event
 * streams, and access control. Not an API.
 */
package io.tributary.ui.internal;
