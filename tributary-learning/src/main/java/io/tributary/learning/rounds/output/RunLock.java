package io.tributary.learning.rounds.output;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * The lock a process holds on a run directory while it writes it, so that two processes never
 * write one run at once (two resumes would interleave {@code metrics.jsonl}): an exclusive
 * {@link FileChannel#tryLock} on the empty file {@link #FILE} in the directory, which the
 * operating system releases when the process ends, however it ends.
 *
 * <p>The file stays in the directory when the run is done (a later process locks it again), but
 * {@link #discard} removes it when this lock created it and nothing was written, so that a
 * refused start leaves the directory as it was.
 */
public final class RunLock implements Closeable {
  /** The lock file's name in a run directory. */
  public static final String FILE = ".lock";
  /** How often a lock file replaced while being locked is opened again. */
  private static final int ATTEMPTS = 3;

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;
  private final boolean created;

  private RunLock(Path file, FileChannel channel, FileLock lock, boolean created) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
    this.created = created;
  }

  /**
   * Locks {@code dir} (which must exist) for this process, creating its lock file if need be.
   *
   * @throws RunFileException when another process (or another writer in this one) holds it: one
   *     line naming the directory
   * @throws IOException when the lock file cannot be created or locked
   */
  public static RunLock acquire(Path dir) throws IOException {
    Objects.requireNonNull(dir, "dir");
    Path file = dir.resolve(FILE);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      boolean created = !Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS);
      FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
          StandardOpenOption.WRITE);
      Object before = key(file);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      } catch (IOException e) {
        channel.close();
        throw e;
      }
      if (lock == null) {
        channel.close();
        throw new RunFileException(dir + " is being written by another process (it holds "
            + FILE + "); wait for that run to end, or use another directory");
      }
      // A lock file that its creator removed (a refused start) between our opening and locking
      // it is no lock: open the one at the path now.
      Object after = key(file);
      if (after != null && after.equals(before)) {
        return new RunLock(file, channel, lock, created);
      }
      lock.release();
      channel.close();
    }
    throw new RunFileException(dir + "'s " + FILE + " keeps being replaced: another process "
        + "is starting in it");
  }

  private static Object key(Path file) throws IOException {
    try {
      Object k = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
      return k != null ? k : Boolean.TRUE;
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** Releases the lock; the lock file stays. */
  @Override
  public void close() throws IOException {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } finally {
      channel.close();
    }
  }

  /**
   * Releases the lock after a start that wrote nothing, removing the lock file when this lock
   * created it: the directory is then as it was before.
   */
  public void discard() throws IOException {
    try {
      if (created) {
        Files.deleteIfExists(file);
      }
    } finally {
      close();
    }
  }
}
