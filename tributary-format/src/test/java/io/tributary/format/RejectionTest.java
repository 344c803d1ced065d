package io.tributary.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import io.tributary.format.internal.fb.ArrayHeader;
import io.tributary.format.internal.fb.DataType;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every kind of malformed or hostile file is rejected with a typed error that names the entry. */
class RejectionTest {
  @TempDir Path dir;
  private Path valid;
  private final Tensor w = Samples.floats(1, 40, 30);

  @BeforeEach
  void writeValid() throws IOException {
    valid = dir.resolve("valid.zip");
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("a", TagContents.builder().parameter("w", w).parameter("b", Samples.floats(2, 30))
        .updaterState("w", List.of(Samples.floats(3, 40, 30)))
        .trainingConfig(ModelRoundTripTest.adam().withUpdaterStateNames(List.of("m"))).build());
    tags.put("b", TagContents.builder().sharedParameter("w", "a").build());
    ModelWriter.save(valid, tags);
  }

  private Path mutate(Consumer<RawZip> change) throws IOException {
    RawZip z = RawZip.of(valid);
    change.accept(z);
    Path out = dir.resolve("bad.zip");
    z.write(out);
    return out;
  }

  /** Opens the file and reads everything in it. */
  private static void readAll(Path file, ReadOptions options) throws IOException {
    try (ModelFile m = ModelFile.open(file, options)) {
      for (ModelTag t : m.allTags()) {
        t.parameterInfos();
        t.parameters();
        for (String p : t.parameterNames()) {
          t.mapParameter(p);
        }
        t.updaterState();
        t.graph();
      }
    }
  }

  private static void readAll(Path file) throws IOException {
    readAll(file, ReadOptions.defaults());
  }

  private static void expect(ThrowingCallable call, Class<? extends ModelFormatException> type, String entry,
      String text) {
    assertThatThrownBy(call).isInstanceOf(type).hasMessageContaining(text)
        .satisfies(e -> assertThat(((ModelFormatException) e).entry()).isEqualTo(entry));
  }

  static Stream<Arguments> unsafeNames() {
    return Stream.of(
        Arguments.of("/etc/passwd", "absolute path"),
        Arguments.of("a/../../evil.sh", "'..'"),
        Arguments.of("..", "'..'"),
        Arguments.of("..\\..\\evil.bat", "backslash"),
        Arguments.of("C:/Windows/evil.dll", "drive letter"),
        Arguments.of("a//b", "empty or '.'"),
        Arguments.of("a/./b", "empty or '.'"),
        Arguments.of("nul\u0000byte", "control character"));
  }

  @ParameterizedTest
  @MethodSource("unsafeNames")
  void open_unsafeEntryName_rejected(String name, String why) throws IOException {
    Path bad = mutate(z -> z.add(name, "x"));
    expect(() -> readAll(bad), UnsafeEntryNameException.class, name, why);
  }

  @Test
  void open_duplicateEntry_rejected() throws IOException {
    Path bad = mutate(z -> z.add("a/params.txt", "w 0\n"));
    expect(() -> readAll(bad), DuplicateEntryException.class, "a/params.txt", "twice");
  }

  @Test
  void open_duplicateEntryDifferingInCase_rejected() throws IOException {
    Path bad = mutate(z -> z.add("A/Params.TXT", "w 0\n"));
    expect(() -> readAll(bad), DuplicateEntryException.class, "A/Params.TXT", "but for case");
  }

  @Test
  void read_deflatedEntryInflatingBeyondDeclaredSize_rejected() throws IOException {
    Path bad = mutate(z -> {
      RawZip.Entry e = z.get("a/params.txt");
      e.deflate = true;
      e.declaredSize = 4;
    });
    expect(() -> readAll(bad), EntrySizeException.class, "a/params.txt", "more than the declared 4 bytes");
  }

  @Test
  void read_arrayEntryLargerThanItsHeaderDeclares_rejected() throws IOException {
    Path bad = mutate(z -> {
      RawZip.Entry e = z.get("a/params/1.fb");
      e.data = Arrays.copyOf(e.data, e.data.length + 100);
    });
    expect(() -> readAll(bad), EntrySizeException.class, "a/params/1.fb", "header declares");
  }

  @Test
  void read_localHeaderDeclaringOtherSizeThanDirectory_rejected() throws IOException {
    Path bad = mutate(z -> z.get("a/params/1.fb").localDeclaredSize = 10);
    expect(() -> readAll(bad), EntrySizeException.class, "a/params/1.fb", "local header declares 10");
  }

  @Test
  void open_entryDeclaringMoreBytesThanItHas_rejected() throws IOException {
    Path bad = mutate(z -> z.get("tags.txt").declaredSize = 1000);
    expect(() -> readAll(bad), EntrySizeException.class, "tags.txt", "central directory");
  }

  @Test
  void open_highlyCompressedEntry_rejectedAsZipBomb() throws IOException {
    Path bad = mutate(z -> z.add("bomb.bin", new byte[20 << 20]).deflate = true);
    expect(() -> readAll(bad), ZipBombException.class, "bomb.bin", "ratio over 100:1");
  }

  @Test
  void open_overlappingEntries_rejectedAsZipBomb() throws IOException {
    Path bad = mutate(z -> z.add("again.txt", "x").pointAt = 0);
    assertThatThrownBy(() -> readAll(bad)).isInstanceOf(ZipBombException.class).hasMessageContaining("overlaps");
  }

  @Test
  void open_deflatedTotalOverLimit_rejectedAsZipBomb() throws IOException {
    byte[] text = new byte[200_000];
    for (int i = 0; i < text.length; i++) {
      text[i] = (byte) ('a' + (i * 7 % 26));
    }
    Path bad = mutate(z -> z.add("notes.txt", text).deflate = true);
    readAll(bad);
    expect(() -> readAll(bad, new ReadOptions(100_000, true)), ZipBombException.class, "notes.txt",
        "more than 100000 bytes in total");
  }

  @Test
  void open_manySmallBombsOverTheTotalRatio_rejectedAsZipBombUnlessRaised() throws IOException {
    // Each entry is within the per-entry rule (1 MiB of zeros is exempt), but together they
    // declare 8 MiB from a file of a few tens of KiB.
    Path bad = mutate(z -> {
      for (int i = 0; i < 8; i++) {
        z.add("zeros" + i + ".bin", new byte[1 << 20]).deflate = true;
      }
    });
    expect(() -> readAll(bad), ZipBombException.class, "zeros1.bin", "bytes in total, over 100 times the file's");
    readAll(bad, ReadOptions.defaults().withMaxExpansionRatio(100_000));
  }

  @Test
  void readOptions_maxTotalBytes_exemptFloorAndNoOverflow() {
    ReadOptions o = ReadOptions.defaults();
    assertThat(o.maxTotalBytes(10)).isEqualTo(ReadOptions.RATIO_EXEMPT_BYTES);
    assertThat(o.maxTotalBytes(1L << 30)).isEqualTo(100L << 30);
    assertThat(o.maxTotalBytes(Long.MAX_VALUE / 2)).isEqualTo(Long.MAX_VALUE);
    assertThat(new ReadOptions(5, true).maxExpansionRatio()).isEqualTo(ReadOptions.DEFAULT_MAX_EXPANSION_RATIO);
    assertThatThrownBy(() -> o.withMaxExpansionRatio(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void read_garbageTrainingConfig_failsVerification() throws IOException {
    Path bad = mutate(z -> z.get("a/trainingConfig.fb").data = "definitely not a flatbuffer".getBytes(StandardCharsets.UTF_8));
    expect(() -> readAll(bad), FlatBufferVerificationException.class, "a/trainingConfig.fb", "");
  }

  @Test
  void read_trainingConfigWithTruncatedBuffer_failsVerification() throws IOException {
    Path bad = mutate(z -> {
      RawZip.Entry e = z.get("a/trainingConfig.fb");
      e.data = Arrays.copyOf(e.data, e.data.length / 2);
    });
    expect(() -> readAll(bad), FlatBufferVerificationException.class, "a/trainingConfig.fb", "outside");
  }

  static Stream<Arguments> headerCorruptions() {
    return Stream.of(
        Arguments.of("root offset", (Consumer<ByteBuffer>) b -> b.putInt(4, 0x7FFF_0000), "root offset"),
        Arguments.of("identifier", (Consumer<ByteBuffer>) b -> b.put(8, (byte) 'X'), "file identifier"),
        Arguments.of("vtable", (Consumer<ByteBuffer>) b -> b.putInt(4 + b.getInt(4), -0x100000), "vtable"),
        Arguments.of("shape length", (Consumer<ByteBuffer>) b -> {
          ByteBuffer fb = b.slice(4, b.getInt(0)).order(ByteOrder.LITTLE_ENDIAN);
          int lengthAt = ArrayHeader.getRootAsArrayHeader(fb).shapeAsByteBuffer().position() - 4 + 4;
          b.putInt(lengthAt, 0x1000_0000);
        }, "vector 'shape'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("headerCorruptions")
  void read_corruptArrayHeader_failsVerification(String what, Consumer<ByteBuffer> corrupt, String text)
      throws IOException {
    Path bad = mutate(z -> {
      RawZip.Entry e = z.get("a/params/1.fb");
      ByteBuffer b = ByteBuffer.wrap(e.data).order(ByteOrder.LITTLE_ENDIAN);
      corrupt.accept(b);
    });
    expect(() -> readAll(bad), FlatBufferVerificationException.class, "a/params/1.fb", text);
  }

  @Test
  void open_referenceToMissingTag_dangling() throws IOException {
    Path bad = mutate(z -> z.get("b/params.txt").data = "w nowhere/0\n".getBytes(StandardCharsets.UTF_8));
    expect(() -> readAll(bad), DanglingReferenceException.class, "b/params.txt", "tag 'nowhere'");
  }

  @Test
  void open_referenceToMissingFile_dangling() throws IOException {
    Path bad = mutate(z -> z.get("b/params.txt").data = "w a/7\n".getBytes(StandardCharsets.UTF_8));
    expect(() -> readAll(bad), DanglingReferenceException.class, "b/params.txt", "'a/params/7.fb'");
  }

  @Test
  void open_referencesFormingACycle_rejectedAsDangling() throws IOException {
    Path bad = mutate(z -> {
      z.entries.removeIf(e -> e.name.contains("/params/"));
      z.get("a/params.txt").data = "w b/0\nb b/1\n".getBytes(StandardCharsets.UTF_8);
      z.get("b/params.txt").data = "w a/0\n".getBytes(StandardCharsets.UTF_8);
    });
    expect(() -> readAll(bad), DanglingReferenceException.class, "a/params.txt", "'b/params/0.fb'");
  }

  @Test
  void open_updaterStateForUnknownParameter_dangling() throws IOException {
    Path bad = mutate(z -> z.get("a/updater.txt").data = "ghost 0\n".getBytes(StandardCharsets.UTF_8));
    expect(() -> readAll(bad), DanglingReferenceException.class, "a/updater.txt", "'ghost'");
  }

  @Test
  void open_updaterColumnsDisagreeingWithConfig_rejected() throws IOException {
    Path bad = mutate(z -> z.get("a/updater.txt").data = "w 0 0\n".getBytes(StandardCharsets.UTF_8));
    expect(() -> readAll(bad), ModelFormatException.class, "a/updater.txt", "2 state arrays");
  }

  @Test
  void open_newerTrainingConfigVersion_rejectedWithClearMessage() throws IOException {
    FlatBufferBuilder b = new FlatBufferBuilder();
    int opt = b.createString("sgd");
    io.tributary.format.internal.fb.TrainingConfig.startTrainingConfig(b);
    io.tributary.format.internal.fb.TrainingConfig.addFormatVersion(b, ModelFile.FORMAT_VERSION + 1);
    io.tributary.format.internal.fb.TrainingConfig.addOptimizer(b, opt);
    b.finish(io.tributary.format.internal.fb.TrainingConfig.endTrainingConfig(b), "TRTC");
    byte[] newer = b.sizedByteArray();
    Path bad = mutate(z -> z.get("a/trainingConfig.fb").data = newer);
    expect(() -> readAll(bad), UnsupportedFormatVersionException.class, "a/trainingConfig.fb",
        "format version 2, newer than this reader's 1");
  }

  @Test
  void read_newerArrayVersion_rejectedWithClearMessage() throws IOException {
    FlatBufferBuilder b = new FlatBufferBuilder();
    int shape = ArrayHeader.createShapeVector(b, new long[] {2});
    ArrayHeader.startArrayHeader(b);
    ArrayHeader.addFormatVersion(b, 7);
    ArrayHeader.addDtype(b, DataType.FLOAT32);
    ArrayHeader.addShape(b, shape);
    ArrayHeader.addDataOffset(b, 64);
    ArrayHeader.addDataLength(b, 8);
    b.finishSizePrefixed(ArrayHeader.endArrayHeader(b), "TRAR");
    byte[] header = Arrays.copyOf(b.sizedByteArray(), 72);
    Path bad = mutate(z -> z.get("a/params/1.fb").data = header);
    expect(() -> readAll(bad), UnsupportedFormatVersionException.class, "a/params/1.fb", "format version 7");
  }

  @Test
  void read_flippedDataByte_checksumMismatchUnlessDisabled() throws IOException {
    Path bad = mutate(z -> {
      RawZip.Entry e = z.get("a/params/0.fb");
      e.crcOverride = crcOf(e.data);
      e.data[e.data.length - 1] ^= 1;
    });
    try (ModelFile m = ModelFile.open(bad)) {
      expect(() -> m.tag("a").parameter("w"), ChecksumMismatchException.class, "a/params/0.fb", "CRC-32");
    }
    try (ModelFile m = ModelFile.open(bad, ReadOptions.defaults().withVerifyChecksums(false))) {
      assertThat(m.tag("a").parameter("w")).isNotEqualTo(w);
    }
  }

  /** Bytes from the end of a 400,000-byte array's data: loading reads it in several slices. */
  static Stream<Arguments> flippedBytesInLargeArray() {
    int len = 400_000;
    return Stream.of(
        Arguments.of("first data byte", len),
        Arguments.of("last byte of the first 128 KiB", len - (128 << 10) + 1),
        Arguments.of("first byte after 256 KiB", len - (256 << 10)),
        Arguments.of("last data byte", 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flippedBytesInLargeArray")
  void read_flippedByteInLargeArray_checksumMismatch(String where, int fromEnd) throws IOException {
    Path big = dir.resolve("big.zip");
    Tensor large = Samples.floats(9, 100_000);
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("t", TagContents.builder().parameter("big", large).build());
    ModelWriter.save(big, tags);
    RawZip z = RawZip.of(big);
    RawZip.Entry e = z.get("t/params/0.fb");
    e.crcOverride = crcOf(e.data);
    e.data[e.data.length - fromEnd] ^= 0x40;
    Path bad = dir.resolve("big-bad.zip");
    z.write(bad);
    try (ModelFile m = ModelFile.open(bad)) {
      expect(() -> m.tag("t").parameter("big"), ChecksumMismatchException.class, "t/params/0.fb", "CRC-32");
    }
    try (ModelFile m = ModelFile.open(big)) {
      assertThat(m.tag("t").parameter("big")).isEqualTo(large);
    }
  }

  private static long crcOf(byte[] data) {
    java.util.zip.CRC32 c = new java.util.zip.CRC32();
    c.update(data);
    return c.getValue();
  }

  @Test
  void open_missingTagList_rejected() throws IOException {
    Path bad = mutate(z -> z.entries.removeIf(e -> e.name.equals("tags.txt")));
    expect(() -> readAll(bad), ModelFormatException.class, "tags.txt", "not a Tributary model file");
  }

  @Test
  void open_invalidTagInList_rejected() throws IOException {
    Path bad = mutate(z -> z.get("tags.txt").data = "a\n../b\n".getBytes(StandardCharsets.UTF_8));
    expect(() -> readAll(bad), ModelFormatException.class, "tags.txt", "line 2");
  }

  @Test
  void open_malformedParamsLine_rejected() throws IOException {
    Path bad = mutate(z -> z.get("a/params.txt").data = "w 0\nb\n".getBytes(StandardCharsets.UTF_8));
    expect(() -> readAll(bad), ModelFormatException.class, "a/params.txt", "line 2");
  }

  @Test
  void open_notAZipOrTruncated_rejected() throws IOException {
    Path junk = dir.resolve("junk.zip");
    Files.write(junk, "hello, I am not a zip file at all".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> readAll(junk)).isInstanceOf(ModelFormatException.class).hasMessageContaining("not a zip");
    byte[] all = Files.readAllBytes(valid);
    Path cut = dir.resolve("cut.zip");
    Files.write(cut, Arrays.copyOf(all, all.length - 30));
    assertThatThrownBy(() -> readAll(cut)).isInstanceOf(ModelFormatException.class);
  }

  @Test
  void open_valid_readsEverything() throws IOException {
    readAll(valid);
  }
}
