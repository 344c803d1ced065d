package io.tributary.format.internal;

/**
 * One entry of a zip central directory, as read or as about to be written.
 *
 * @param name the entry name, decoded as UTF-8
 * @param flags the general-purpose bit flags
 * @param method 0 (stored) or 8 (deflated)
 * @param crc the CRC-32 of the uncompressed bytes
 * @param compressedSize bytes stored in the archive
 * @param size bytes after decompression
 * @param localHeaderOffset where the entry's local file header starts
 */
public record ZipEntryRecord(
    String name, int flags, int method, long crc, long compressedSize, long size, long localHeaderOffset) {

  /** Compression method: stored as is. */
  public static final int STORED = 0;

  /** Compression method: raw deflate. */
  public static final int DEFLATED = 8;

  /** The same entry at another position in the archive. */
  public ZipEntryRecord movedTo(long offset) {
    return new ZipEntryRecord(name, flags, method, crc, compressedSize, size, offset);
  }

  /** The same entry under another name. */
  public ZipEntryRecord renamed(String newName) {
    return new ZipEntryRecord(newName, flags, method, crc, compressedSize, size, localHeaderOffset);
  }
}
