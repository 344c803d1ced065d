package io.tributary.tensor.npy;

import io.tributary.tensor.Shape;
import java.util.Objects;

/**
 * The header of an NPY array: its format version and the three entries of its dict.
 *
 * @param version the format version from the magic string
 * @param descr the dtype descriptor, such as {@code <f4}; for a structured dtype (a list in the
 *     file) the literal text of that list
 * @param fortranOrder true when the data is stored column-major
 * @param shape the array's dimensions
 * @param dataOffset the byte offset of the first data byte from the start of the magic string
 */
public record NpyHeader(
    NpyVersion version, String descr, boolean fortranOrder, Shape shape, int dataOffset) {
  public NpyHeader {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(descr, "descr");
    Objects.requireNonNull(shape, "shape");
  }
}
