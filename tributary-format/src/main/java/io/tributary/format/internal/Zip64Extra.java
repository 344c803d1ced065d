package io.tributary.format.internal;

import io.tributary.format.EntrySizeException;
import io.tributary.format.ModelFormatException;
import java.nio.ByteBuffer;

/** The zip64 extended-information extra field (header id 0x0001): 64-bit sizes and offsets. */
final class Zip64Extra {
  private Zip64Extra() {}

  /**
   * Reads the 64-bit values that replace the 32-bit fields marked as overflowing.
   *
   * @return {size, compressed size, offset}, each -1 where the 32-bit field stands
   */
  static long[] read(String entry, ByteBuffer extra, boolean size, boolean csize, boolean offset, boolean disk)
      throws ModelFormatException {
    long[] out = {-1, -1, -1};
    int p = 0;
    while (p + 4 <= extra.limit()) {
      int id = extra.getShort(p) & 0xFFFF;
      int len = extra.getShort(p + 2) & 0xFFFF;
      if (p + 4 + len > extra.limit()) {
        throw new ModelFormatException(entry, "extra field 0x%04x runs past the extra data".formatted(id));
      }
      if (id == ZipArchive.ZIP64_EXTRA) {
        int q = p + 4;
        int need = 8 * ((size ? 1 : 0) + (csize ? 1 : 0) + (offset ? 1 : 0)) + (disk ? 4 : 0);
        if (len < need) {
          throw new EntrySizeException(entry, "zip64 extra field holds " + len + " bytes, " + need + " needed");
        }
        if (size) {
          out[0] = extra.getLong(q);
          q += 8;
        }
        if (csize) {
          out[1] = extra.getLong(q);
          q += 8;
        }
        if (offset) {
          out[2] = extra.getLong(q);
        }
        return out;
      }
      p += 4 + len;
    }
    if (size || csize || offset || disk) {
      throw new EntrySizeException(entry, "32-bit size or offset field is 0xFFFFFFFF but there is no zip64 extra field");
    }
    return out;
  }
}
