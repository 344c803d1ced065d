package io.tributary.flower.fleet;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A SuperNode key file that cannot be used: unreadable, in no format {@link NodeKeys} reads, or
 * malformed; the message names the file and says what is wrong with it.
 */
public final class NodeKeyException extends IOException {
  private static final long serialVersionUID = 1L;

  /** The file; not serialized. */
  private final transient Path file;
  private final String problem;

  /** A problem with {@code file}, worded to follow its name ("is not ..."). */
  public NodeKeyException(Path file, String problem, Throwable cause) {
    super(file + " " + problem, cause);
    this.file = file;
    this.problem = problem;
  }

  /** The key file that was refused. */
  public Path file() {
    return file;
  }

  /** What is wrong with it, without the file's name. */
  public String problem() {
    return problem;
  }
}
