/** Helpers of the learning module that are not part of its API. */
package io.tributary.learning.internal;
