package io.tributary.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Brings the machine's writeback to rest before a timed side of a disk benchmark: {@code sync},
 * then waits until {@code Dirty + Writeback} in /proc/meminfo is at most a threshold, or a
 * timeout passes (counted, and reported by {@link #summary}).
 *
 * <p>Why: without it, a side that runs second pays for the first side's writeback (the kernel
 * flushes and, on a disk mounted with {@code discard}, trims the first side's gigabyte while
 * the second one writes and fsyncs), so the per-run ratios follow the order of the sides instead
 * of their speed. {@code sync} also commits the file system's journal, so blocks a replaced or
 * deleted file freed are released before the timing, not during the next side's fsync.
 * Where /proc/meminfo does not exist (not Linux) only {@code sync} runs.
 */
final class PageCacheSettler {
  private final boolean enabled;
  private final long thresholdBytes;
  private final long timeoutNanos;
  private int settles;
  private int timeouts;
  private long maxWaitNanos;
  private long lastLeftBytes = -1;

  /**
   * @param enabled false: {@link #settle} does nothing (to compare with unsettled runs)
   * @param thresholdBytes the Dirty + Writeback bytes counted as settled
   * @param timeoutSeconds how long to wait for them before timing anyway
   */
  PageCacheSettler(boolean enabled, long thresholdBytes, double timeoutSeconds) {
    this.enabled = enabled;
    this.thresholdBytes = thresholdBytes;
    this.timeoutNanos = (long) (timeoutSeconds * 1e9);
  }

  /** Runs {@code sync} and waits for Dirty + Writeback to fall to the threshold or time out. */
  void settle() throws IOException {
    if (!enabled) {
      return;
    }
    long start = System.nanoTime();
    try {
      Process sync = new ProcessBuilder("sync").inheritIO().start();
      if (sync.waitFor() != 0) {
        throw new IOException("sync exited with " + sync.exitValue());
      }
      long left = dirtyAndWriteback();
      while (left > thresholdBytes && System.nanoTime() - start < timeoutNanos) {
        Thread.sleep(20);
        left = dirtyAndWriteback();
      }
      lastLeftBytes = left;
      settles++;
      if (left > thresholdBytes) {
        timeouts++;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for writeback", e);
    }
    maxWaitNanos = Math.max(maxWaitNanos, System.nanoTime() - start);
  }

  /** One line: how many settles, how many timed out, the longest wait; or that it was off. */
  String summary() {
    if (!enabled) {
      return "not settled before each side (SETTLE=0): sides may pay for each other's writeback";
    }
    return String.format(Locale.ROOT,
        "sync + Dirty+Writeback <= %d MB before each of %d timed sides: %d timed out after %.0f s"
            + " (figures then include others' writeback), longest wait %.2f s, last left %d kB",
        thresholdBytes >> 20, settles, timeouts, timeoutNanos / 1e9, maxWaitNanos / 1e9,
        lastLeftBytes >> 10);
  }

  /** Dirty + Writeback from /proc/meminfo in bytes, or 0 where there is no such file. */
  static long dirtyAndWriteback() throws IOException {
    Path meminfo = Path.of("/proc/meminfo");
    if (!Files.isReadable(meminfo)) {
      return 0;
    }
    return dirtyAndWriteback(Files.readString(meminfo));
  }

  /** Dirty + Writeback in bytes from the text of /proc/meminfo (lines "Name:   123 kB"). */
  static long dirtyAndWriteback(String meminfo) {
    long kb = 0;
    for (String line : meminfo.split("\n")) {
      if (line.startsWith("Dirty:") || line.startsWith("Writeback:")) {
        kb += Long.parseLong(line.substring(line.indexOf(':') + 1).replace("kB", "").trim());
      }
    }
    return kb << 10;
  }
}
