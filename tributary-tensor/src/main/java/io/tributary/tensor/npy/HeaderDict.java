package io.tributary.tensor.npy;

import io.tributary.tensor.Shape;

/**
 * The three entries of an NPY header dict, as parsed.
 *
 * @param descr the descr string, or the literal text of a non-string descr (a structured list)
 * @param descrIsString false when descr was a list, tuple or dict literal rather than a string
 * @param fortranOrder the {@code fortran_order} flag
 * @param shape the validated shape
 */
record HeaderDict(String descr, boolean descrIsString, boolean fortranOrder, Shape shape) {}
