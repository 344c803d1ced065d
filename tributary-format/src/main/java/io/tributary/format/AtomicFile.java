package io.tributary.format;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Replaces a file all at once: the new content goes to a temporary file in the same folder,
 * which is fsynced and then renamed over the target, after which the folder is fsynced so the
 * rename itself survives a crash.
 *
 * <p>A crash at any point leaves either the old file or the new one, never a mix. A writer that
 * fails removes its temporary file; one that is killed leaves a {@code .NAME.UUID.tmp} file,
 * which the next write into the same folder removes. Writers hold a lock on their temporary file
 * from its creation to its rename, and only files whose lock can be taken (their writer is gone)
 * are removed, so writers in the same folder never remove each other's files.
 */
public final class AtomicFile {
  /** The temporary files this class names: {@code .NAME.UUID.tmp}. */
  private static final Pattern TEMPORARY = Pattern.compile(
      "\\..+\\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.tmp");

  /** Writes the new content into the channel of the temporary file. */
  @FunctionalInterface
  public interface Body {
    /** Writes the whole new content to {@code out}, leaving it open. */
    void write(FileChannel out) throws IOException;
  }

  private AtomicFile() {}

  /**
   * Replaces {@code target} with what {@code body} writes, durably, keeping its permissions.
   *
   * @throws java.nio.file.NoSuchFileException when the target's folder does not exist
   */
  public static void write(Path target, Body body) throws IOException {
    write(target, body, null);
  }

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
    removeAbandoned(dir);
    Path temp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    boolean moved = false;
    try {
      // The lock lasts until the channel closes, after the rename: while it is held, no other
      // writer's cleanup takes this file for abandoned.
      try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
          StandardOpenOption.READ)) {
        ch.lock();
        body.write(ch);
        ch.force(true);
        keepPermissions(target, temp);
        if (source != null) {
          source.close();
        }
        move(temp, target);
        moved = true;
      }
      syncFolder(dir);
    } finally {
      if (!moved) {
        Files.deleteIfExists(temp);
      }
    }
  }

  /**
   * Removes the temporary files in {@code dir} left by writers that were killed: those named as
   * this class names them whose lock nobody holds. Best effort: a file that cannot be examined is
   * left alone.
   */
  static void removeAbandoned(Path dir) {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, p -> TEMPORARY.matcher(
        p.getFileName().toString()).matches())) {
      for (Path p : files) {
        removeIfAbandoned(p);
      }
    } catch (IOException e) {
      // The folder cannot be listed: nothing can be cleaned up, and the write will report why.
    }
  }

  private static void removeIfAbandoned(Path p) {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
      FileLock lock = ch.tryLock();
      if (lock != null) {
        Files.deleteIfExists(p);
      }
    } catch (OverlappingFileLockException e) {
      // A writer in this JVM holds it.
    } catch (IOException e) {
      // Gone already, or not ours to open: leave it.
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

  static void syncFolder(Path dir) throws IOException {
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
