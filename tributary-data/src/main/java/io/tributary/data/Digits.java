package io.tributary.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The embedded 8x8 handwritten digits data: 1797 examples of 64 features with labels 0..9.
 *
 * <p>This is the copy of the test set of the UCI Machine Learning Repository's "Optical
 * Recognition of Handwritten Digits" data (E. Alpaydin and C. Kaynak, CC BY 4.0) that
 * scikit-learn ships as {@code digits.csv.gz}; see the NOTICE file. Each feature counts the set
 * pixels of a 4x4 block, 0..16; {@link #load()} divides by 16, so features lie in [0, 1].
 */
public final class Digits {
  /** The number of examples. */
  public static final int NUM_EXAMPLES = 1797;
  /** The number of features per example (8 x 8 pixels). */
  public static final int NUM_FEATURES = 64;
  /** The number of classes (digits 0..9). */
  public static final int NUM_CLASSES = 10;
  /** The largest raw pixel value, which {@link #load()} maps to 1. */
  public static final int MAX_PIXEL = 16;

  private static final String RESOURCE = "digits.csv.gz";

  private Digits() {}

  /**
   * All 1797 examples in the file's order, features {@code float32[1797, 64]} scaled to [0, 1].
   *
   * @throws UncheckedIOException when the embedded resource cannot be read, which means a broken
   *     build rather than bad input
   */
  public static Dataset load() {
    try (InputStream in = Digits.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new UncheckedIOException(new IOException(
            "resource io/tributary/data/" + RESOURCE + " is missing from the classpath"));
      }
      Dataset d = CsvLoader.builder()
          .name("digits")
          .labelColumn(-1)
          .numClasses(NUM_CLASSES)
          .featureScale(1.0 / MAX_PIXEL)
          .build()
          .load(in, "io/tributary/data/" + RESOURCE);
      if (d.size() != NUM_EXAMPLES || d.featuresPerExample() != NUM_FEATURES) {
        throw new UncheckedIOException(new DatasetFormatException(RESOURCE,
            "expected " + NUM_EXAMPLES + " x " + NUM_FEATURES + ", found " + d));
      }
      return d;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The digits split into train and test parts that keep the class proportions, with
   * {@code round(testFraction * n_c)} test examples from each class c.
   */
  public static TrainTestSplit load(double testFraction, long seed) {
    return load().stratifiedSplit(testFraction, seed);
  }
}
