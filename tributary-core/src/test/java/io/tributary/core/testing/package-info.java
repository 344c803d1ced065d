/** Test support: golden-file comparison. */
package io.tributary.core.testing;
