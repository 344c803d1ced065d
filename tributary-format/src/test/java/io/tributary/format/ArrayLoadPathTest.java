package io.tributary.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.format.internal.ArrayReader;
import io.tributary.format.internal.ArrayReader.LoadPath;
import io.tributary.format.internal.ZipArchive;
import io.tributary.format.internal.ZipEntryRecord;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Both ways of loading an array into memory read the same bytes and reject the same damage. */
class ArrayLoadPathTest {
  @TempDir Path dir;

  /** Arrays around the 128 KiB slice the loader moves at a time, and an empty one. */
  private static SequencedMap<String, Tensor> arrays() {
    SequencedMap<String, Tensor> m = new LinkedHashMap<>();
    m.put("empty", Samples.random(DType.FLOAT32, Shape.of(0), 1));
    m.put("tiny", Samples.random(DType.INT8, Shape.of(3), 2));
    m.put("one-slice", Samples.random(DType.FLOAT32, Shape.of(32 * 1024), 3));
    m.put("slice-plus-one", Samples.random(DType.INT8, Shape.of(128 * 1024 + 1), 4));
    m.put("several", Samples.random(DType.FLOAT64, Shape.of(70_001), 5));
    m.put("halves", Samples.random(DType.FLOAT16, Shape.of(300, 301), 6));
    return m;
  }

  private Path save(SequencedMap<String, Tensor> params) throws IOException {
    Path file = dir.resolve("m.zip");
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("t", TagContents.of(params));
    ModelWriter.save(file, tags);
    return file;
  }

  private static List<ZipEntryRecord> arrayEntries(ZipArchive z) {
    List<ZipEntryRecord> out = new ArrayList<>();
    for (ZipEntryRecord e : z.entries()) {
      if (e.name().startsWith("t/params/")) {
        out.add(e);
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(LoadPath.class)
  void load_eachPath_equalsWhatWasSaved(LoadPath path) throws IOException {
    SequencedMap<String, Tensor> params = arrays();
    Path file = save(params);
    try (ZipArchive z = ZipArchive.open(file, 0)) {
      ArrayReader reader = new ArrayReader(z, 0, path);
      List<ZipEntryRecord> entries = arrayEntries(z);
      List<Tensor> expected = List.copyOf(params.values());
      assertThat(entries).hasSameSizeAs(expected);
      for (int i = 0; i < entries.size(); i++) {
        assertThat(reader.load(entries.get(i), true)).as(entries.get(i).name()).isEqualTo(expected.get(i));
        assertThat(reader.load(entries.get(i), false)).as(entries.get(i).name()).isEqualTo(expected.get(i));
      }
    }
  }

  static Stream<Arguments> flips() {
    List<Arguments> out = new ArrayList<>();
    for (LoadPath p : LoadPath.values()) {
      // Bytes from the end of the 560,008-byte data of "several".
      for (int fromEnd : new int[] {560_008, 560_008 - (128 << 10), 1}) {
        out.add(Arguments.of(p, fromEnd));
      }
    }
    return out.stream();
  }

  @ParameterizedTest
  @MethodSource("flips")
  void load_flippedDataByte_checksumMismatchNamingTheEntry(LoadPath path, int fromEnd) throws IOException {
    Tensor several = Samples.random(DType.FLOAT64, Shape.of(70_001), 5);
    SequencedMap<String, Tensor> params = new LinkedHashMap<>();
    params.put("several", several);
    params.put("other", Samples.random(DType.INT8, Shape.of(5), 7));
    RawZip raw = RawZip.of(save(params));
    RawZip.Entry e = raw.get("t/params/0.fb");
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(e.data);
    e.crcOverride = crc.getValue();
    e.data[e.data.length - fromEnd] ^= 1;
    Path bad = dir.resolve("bad.zip");
    raw.write(bad);
    try (ZipArchive z = ZipArchive.open(bad, 0)) {
      ArrayReader reader = new ArrayReader(z, 0, path);
      ZipEntryRecord entry = arrayEntries(z).get(0);
      assertThatThrownBy(() -> reader.load(entry, true)).isInstanceOf(ChecksumMismatchException.class)
          .hasMessageContaining("CRC-32")
          .satisfies(x -> assertThat(((ModelFormatException) x).entry()).isEqualTo("t/params/0.fb"));
      assertThat(reader.load(entry, false)).isNotEqualTo(several);
    }
  }

  @ParameterizedTest
  @EnumSource(LoadPath.class)
  void load_fileTruncatedAfterOpening_entrySizeError(LoadPath path) throws IOException {
    SequencedMap<String, Tensor> params = new LinkedHashMap<>();
    params.put("several", Samples.random(DType.FLOAT64, Shape.of(70_001), 5));
    Path file = save(params);
    try (ZipArchive z = ZipArchive.open(file, 0)) {
      ArrayReader reader = new ArrayReader(z, 0, path);
      ZipEntryRecord entry = arrayEntries(z).get(0);
      long cut = z.dataStart(entry) + entry.size() / 2;
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.truncate(cut);
      }
      assertThatThrownBy(() -> reader.load(entry, true)).isInstanceOf(EntrySizeException.class)
          .hasMessageContaining("file ends inside")
          .satisfies(x -> assertThat(((ModelFormatException) x).entry()).isEqualTo("t/params/0.fb"));
    }
  }
}
