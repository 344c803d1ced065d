package io.tributary.simulation;

import java.io.IOException;
import java.nio.file.Path;

/** The data a simulation names cannot be read; {@link #location} says where they were sought. */
public final class SimulationDataException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path location;

  /** Reading the data at {@code location} failed with {@code cause}. */
  public SimulationDataException(Path location, IOException cause) {
    super(cause.getMessage(), cause);
    this.location = location;
  }

  /** The file or directory the data were sought in. */
  public Path location() {
    return location;
  }

  @Override
  public synchronized IOException getCause() {
    return (IOException) super.getCause();
  }
}
