package io.tributary.format;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import java.util.Optional;

/**
 * What a parameter or updater state array is, from its header alone.
 *
 * @param name the parameter's name
 * @param dtype the element type
 * @param shape the dimensions
 * @param entry the zip entry holding the array
 * @param sharedFrom the tag whose files hold the array, when it is not the tag asked
 */
public record ArrayInfo(String name, DType dtype, Shape shape, String entry, Optional<String> sharedFrom) {}
