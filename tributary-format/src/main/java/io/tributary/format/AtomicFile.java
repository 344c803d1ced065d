package io.tributary.format;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.UUID;

/**
 * Replaces a file all at once: the new content goes to a temporary file in the same folder,
 * which is fsynced and then renamed over the target, after which the folder is fsynced so the
 * rename itself survives a crash. A crash at any point leaves either the old file or the new one,
 * never a mix; at worst a stray {@code .NAME.UUID.tmp} file remains beside it.
 */
final class AtomicFile {
  /** Writes the new content into the channel of the temporary file. */
  @FunctionalInterface
  interface Body {
    void write(FileChannel out) throws IOException;
  }

  private AtomicFile() {}

  /**
   * Writes {@code target} through {@code body}.
   *
   * @param source a reader of the old file to close before the rename (some systems refuse to
   *     replace an open file), or null
   */
  static void write(Path target, Body body, Closeable source) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new java.nio.file.NoSuchFileException(String.valueOf(dir), null, "folder does not exist");
    }
    Path temp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    boolean moved = false;
    try {
      try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
          StandardOpenOption.READ)) {
        body.write(ch);
        ch.force(true);
      }
      keepPermissions(target, temp);
      if (source != null) {
        source.close();
      }
      move(temp, target);
      moved = true;
      syncFolder(dir);
    } finally {
      if (!moved) {
        Files.deleteIfExists(temp);
      }
    }
  }

  private static void keepPermissions(Path target, Path temp) throws IOException {
    if (!Files.exists(target)) {
      return;
    }
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(target);
      Files.setPosixFilePermissions(temp, perms);
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: the new file keeps the default permissions.
    }
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void syncFolder(Path dir) throws IOException {
    FileChannel d;
    try {
      d = FileChannel.open(dir, StandardOpenOption.READ);
    } catch (IOException e) {
      // Some systems (Windows) cannot open a folder as a channel; their rename is durable by itself.
      return;
    }
    try (d) {
      d.force(true);
    }
  }
}
