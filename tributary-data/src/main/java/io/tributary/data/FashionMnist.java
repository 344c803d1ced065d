package io.tributary.data;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Fashion-MNIST (Zalando Research, MIT licence): 60,000 training and 10,000 test images of 28x28
 * pixels in 10 clothing classes, read from IDX files.
 *
 * <p>Not embedded: the Debian package {@code dataset-fashion-mnist} installs the gzip'd IDX files
 * in {@link #DEBIAN_DIR}; any directory in the MNIST layout works.
 */
public final class FashionMnist {
  /** Where the Debian package {@code dataset-fashion-mnist} installs the files. */
  public static final Path DEBIAN_DIR = Path.of("/usr/share/datasets/fashion-mnist");

  /** The class names, indexed by label. */
  public static final List<String> CLASS_NAMES = List.of("T-shirt/top", "Trouser", "Pullover",
      "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot");

  private FashionMnist() {}

  /** Loads the files from {@link #DEBIAN_DIR}. */
  public static TrainTestSplit load() throws IOException {
    return load(DEBIAN_DIR);
  }

  /**
   * Loads the train and test sets from {@code dir}; features {@code float32[N, 784]} in [0, 1].
   *
   * @see Idx#loadMnistLayout(Path, String)
   */
  public static TrainTestSplit load(Path dir) throws IOException {
    return Idx.loadMnistLayout(dir, "fashion-mnist");
  }
}
