package io.tributary.cli.hostile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes zip files byte by byte, including ones no zip library would write: central directory
 * records that point at any offset, so that several entries share one entry's bytes.
 */
final class RawZip {
  /** One entry's data as it lies in the file, and what its records declare. */
  record Data(String name, int method, long crc, byte[] stored, long size) {}

  /** A directory record: an entry's data under {@code name}, said to start at {@code offset}. */
  record Record(String name, Data data, long offset) {}

  private RawZip() {}

  /** Stored data. */
  static Data stored(String name, byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return new Data(name, 0, crc.getValue(), bytes, bytes.length);
  }

  /** {@code zeros} zero bytes after {@code prefix}, raw-deflated, without holding them all. */
  static Data deflatedZeros(String name, byte[] prefix, long zeros) {
    Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    CRC32 crc = new CRC32();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[1 << 16];
    byte[] block = new byte[1 << 16];
    d.setInput(prefix);
    crc.update(prefix);
    drain(d, out, buf);
    for (long left = zeros; left > 0; left -= block.length) {
      int n = (int) Math.min(block.length, left);
      d.setInput(block, 0, n);
      crc.update(block, 0, n);
      drain(d, out, buf);
    }
    d.finish();
    while (!d.finished()) {
      out.write(buf, 0, d.deflate(buf));
    }
    d.end();
    return new Data(name, 8, crc.getValue(), out.toByteArray(), prefix.length + zeros);
  }

  private static void drain(Deflater d, ByteArrayOutputStream out, byte[] buf) {
    while (!d.needsInput()) {
      out.write(buf, 0, d.deflate(buf));
    }
  }

  /**
   * Writes {@code data} one after another, then a directory of {@code records}; a record whose
   * offset is negative points at its own data's local header.
   */
  static void write(Path file, List<Data> data, List<Record> records) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<Long> offsets = new ArrayList<>();
    for (Data d : data) {
      offsets.add((long) out.size());
      byte[] name = d.name().getBytes(StandardCharsets.UTF_8);
      le(out, 0x04034b50, 4);
      le(out, 20, 2);
      le(out, 0, 2);
      le(out, d.method(), 2);
      le(out, 0, 4);
      le(out, d.crc(), 4);
      le(out, d.stored().length, 4);
      le(out, d.size(), 4);
      le(out, name.length, 2);
      le(out, 0, 2);
      out.write(name);
      out.write(d.stored());
    }
    long cdStart = out.size();
    for (Record r : records) {
      byte[] name = r.name().getBytes(StandardCharsets.UTF_8);
      Data d = r.data();
      long offset = r.offset() >= 0 ? r.offset() : offsets.get(data.indexOf(d));
      le(out, 0x02014b50, 4);
      le(out, 20, 2);
      le(out, 20, 2);
      le(out, 0, 2);
      le(out, d.method(), 2);
      le(out, 0, 4);
      le(out, d.crc(), 4);
      le(out, d.stored().length, 4);
      le(out, d.size(), 4);
      le(out, name.length, 2);
      le(out, 0, 2);
      le(out, 0, 2);
      le(out, 0, 2);
      le(out, 0, 2);
      le(out, 0, 4);
      le(out, offset, 4);
      out.write(name);
    }
    long cdSize = out.size() - cdStart;
    le(out, 0x06054b50, 4);
    le(out, 0, 2);
    le(out, 0, 2);
    le(out, records.size(), 2);
    le(out, records.size(), 2);
    le(out, cdSize, 4);
    le(out, cdStart, 4);
    le(out, 0, 2);
    try (OutputStream f = Files.newOutputStream(file)) {
      out.writeTo(f);
    }
  }

  private static void le(ByteArrayOutputStream out, long v, int bytes) {
    for (int i = 0; i < bytes; i++) {
      out.write((int) (v >>> (8 * i)));
    }
  }
}
