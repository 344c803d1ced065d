package io.tributary.flower.fleet.server.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * A zip archive byte for byte as Python's {@code zipfile} writes one with
 * {@code writestr(ZipInfo(name, date_time), data)} into a seekable buffer, which is how
 * {@code flwr build} writes a FAB: every entry stored (a {@code ZipInfo}'s own compression, not
 * the archive's), no data descriptors or extra fields, version 2.0 made on Unix (3), permissions
 * {@code 0600}, names in ASCII or else UTF-8 with flag bit 11. The FAB's hash is the SHA-256 of
 * these bytes, so they must match.
 */
final class StoredZip {
  private static final int VERSION = 20;
  private static final int UNIX = 3;
  private static final int EXTERNAL_ATTR = 0600 << 16;
  private static final int UTF8_FLAG = 0x800;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream central = new ByteArrayOutputStream();
  private final int dosTime;
  private final int dosDate;
  private int entries;

  /** Entries dated {@code year-month-day hour:minute:second}, as a {@code ZipInfo.date_time}. */
  StoredZip(int year, int month, int day, int hour, int minute, int second) {
    this.dosDate = (year - 1980) << 9 | month << 5 | day;
    this.dosTime = hour << 11 | minute << 5 | second / 2;
  }

  void add(String name, byte[] data) {
    boolean ascii = StandardCharsets.US_ASCII.newEncoder().canEncode(name);
    byte[] fileName = name.getBytes(ascii ? StandardCharsets.US_ASCII : StandardCharsets.UTF_8);
    int flags = ascii ? 0 : UTF8_FLAG;
    CRC32 crc = new CRC32();
    crc.update(data);
    int offset = out.size();
    ByteBuffer local = le(30 + fileName.length);
    local.putInt(0x04034b50).put((byte) VERSION).put((byte) 0).putShort((short) flags)
        .putShort((short) 0).putShort((short) dosTime).putShort((short) dosDate)
        .putInt((int) crc.getValue()).putInt(data.length).putInt(data.length)
        .putShort((short) fileName.length).putShort((short) 0).put(fileName);
    out.writeBytes(local.array());
    out.writeBytes(data);
    ByteBuffer dir = le(46 + fileName.length);
    dir.putInt(0x02014b50).put((byte) VERSION).put((byte) UNIX).put((byte) VERSION)
        .put((byte) 0).putShort((short) flags).putShort((short) 0).putShort((short) dosTime)
        .putShort((short) dosDate).putInt((int) crc.getValue()).putInt(data.length)
        .putInt(data.length).putShort((short) fileName.length).putShort((short) 0)
        .putShort((short) 0).putShort((short) 0).putShort((short) 0).putInt(EXTERNAL_ATTR)
        .putInt(offset).put(fileName);
    central.writeBytes(dir.array());
    entries++;
  }

  /** The archive: the entries, the central directory and its end record. */
  byte[] finish() {
    int start = out.size();
    out.writeBytes(central.toByteArray());
    ByteBuffer end = le(22);
    end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) entries)
        .putShort((short) entries).putInt(central.size()).putInt(start).putShort((short) 0);
    out.writeBytes(end.array());
    return out.toByteArray();
  }

  /** Bytes written so far. */
  int size() {
    return out.size() + central.size();
  }

  private static ByteBuffer le(int n) {
    return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
  }
}
