package io.tributary.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A zip writer for tests that writes whatever it is told, lies included: duplicate names,
 * unsafe paths, wrong sizes, overlapping entries. Not for production use.
 */
final class RawZip {
  /** One entry; the overrides, when not -1, replace the true values in both headers. */
  static final class Entry {
    final String name;
    byte[] data;
    boolean deflate;
    long declaredSize = -1;
    long localDeclaredSize = -1;
    long crcOverride = -1;
    /** When >= 0, the central directory points this entry at the local header of entry #pointAt. */
    int pointAt = -1;

    Entry(String name, byte[] data) {
      this.name = name;
      this.data = data;
    }
  }

  final List<Entry> entries = new ArrayList<>();

  Entry add(String name, byte[] data) {
    Entry e = new Entry(name, data);
    entries.add(e);
    return e;
  }

  Entry add(String name, String text) {
    return add(name, text.getBytes(StandardCharsets.UTF_8));
  }

  Entry get(String name) {
    for (Entry e : entries) {
      if (e.name.equals(name)) {
        return e;
      }
    }
    throw new IllegalArgumentException("no entry " + name);
  }

  /** Every entry of a (well-formed) zip, read with the JDK's reader. */
  static RawZip of(Path file) throws IOException {
    RawZip z = new RawZip();
    try (ZipFile zf = new ZipFile(file.toFile())) {
      for (Enumeration<? extends ZipEntry> en = zf.entries(); en.hasMoreElements(); ) {
        ZipEntry e = en.nextElement();
        z.add(e.getName(), zf.getInputStream(e).readAllBytes());
      }
    }
    return z;
  }

  SequencedMap<String, byte[]> contents() {
    SequencedMap<String, byte[]> m = new LinkedHashMap<>();
    for (Entry e : entries) {
      m.put(e.name, e.data);
    }
    return m;
  }

  void write(Path file) throws IOException {
    Files.write(file, bytes());
  }

  byte[] bytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream cd = new ByteArrayOutputStream();
    List<Long> offsets = new ArrayList<>();
    for (Entry e : entries) {
      byte[] name = e.name.getBytes(StandardCharsets.UTF_8);
      byte[] stored = e.deflate ? deflate(e.data) : e.data;
      CRC32 crc = new CRC32();
      crc.update(e.data);
      long crcValue = e.crcOverride >= 0 ? e.crcOverride : crc.getValue();
      long size = e.declaredSize >= 0 ? e.declaredSize : e.data.length;
      long localSize = e.localDeclaredSize >= 0 ? e.localDeclaredSize : size;
      long csize = e.deflate ? stored.length : size;
      long localCsize = e.deflate ? stored.length : localSize;
      offsets.add((long) out.size());
      ByteBuffer h = le(30 + name.length);
      h.putInt(0x04034b50).putShort((short) 20).putShort((short) 0x800).putShort((short) (e.deflate ? 8 : 0))
          .putShort((short) 0).putShort((short) 0x21).putInt((int) crcValue).putInt((int) localCsize)
          .putInt((int) localSize).putShort((short) name.length).putShort((short) 0).put(name);
      out.writeBytes(h.array());
      out.writeBytes(stored);
    }
    long cdOffset = out.size();
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      byte[] name = e.name.getBytes(StandardCharsets.UTF_8);
      byte[] stored = e.deflate ? deflate(e.data) : e.data;
      CRC32 crc = new CRC32();
      crc.update(e.data);
      long crcValue = e.crcOverride >= 0 ? e.crcOverride : crc.getValue();
      long size = e.declaredSize >= 0 ? e.declaredSize : e.data.length;
      long csize = e.deflate ? stored.length : size;
      long offset = e.pointAt >= 0 ? offsets.get(e.pointAt) : offsets.get(i);
      ByteBuffer c = le(46 + name.length);
      c.putInt(0x02014b50).putShort((short) 20).putShort((short) 20).putShort((short) 0x800)
          .putShort((short) (e.deflate ? 8 : 0)).putShort((short) 0).putShort((short) 0x21).putInt((int) crcValue)
          .putInt((int) csize).putInt((int) size).putShort((short) name.length).putShort((short) 0)
          .putShort((short) 0).putShort((short) 0).putShort((short) 0).putInt(0).putInt((int) offset).put(name);
      cd.writeBytes(c.array());
    }
    out.writeBytes(cd.toByteArray());
    ByteBuffer end = le(22);
    end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) entries.size())
        .putShort((short) entries.size()).putInt(cd.size()).putInt((int) cdOffset).putShort((short) 0);
    out.writeBytes(end.array());
    return out.toByteArray();
  }

  private static ByteBuffer le(int n) {
    return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
  }

  static byte[] deflate(byte[] data) {
    Deflater d = new Deflater(9, true);
    d.setInput(data);
    d.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    while (!d.finished()) {
      out.write(buf, 0, d.deflate(buf));
    }
    d.end();
    return out.toByteArray();
  }
}
