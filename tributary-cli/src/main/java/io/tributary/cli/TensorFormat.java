package io.tributary.cli;

import java.nio.file.Path;
import java.util.Locale;

/** The tensor file formats the commands know, each recognised by its file extension. */
enum TensorFormat {
  /** One numpy array ({@code np.save}). */
  NPY(".npy"),
  /** A zip of named numpy arrays ({@code np.savez}). */
  NPZ(".npz"),
  /** One serialized Flower {@code Parameters} message (FEP-0002). */
  PB(".pb"),
  /** A model file of tags (ADR 0001; {@code io.tributary.format}). */
  MODEL(".zip");

  private final String extension;

  TensorFormat(String extension) {
    this.extension = extension;
  }

  /**
   * The format of {@code file}, from its extension (case-insensitive).
   *
   * @throws TensorFileException when the extension is none of .npy, .npz, .pb
   */
  static TensorFormat of(Path file) throws TensorFileException {
    Path name = file.getFileName();
    String lower = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
    for (TensorFormat f : values()) {
      if (lower.endsWith(f.extension)) {
        return f;
      }
    }
    throw new TensorFileException("unknown file type: expected a .npy, .npz, .pb or .zip (model) file name");
  }
}
