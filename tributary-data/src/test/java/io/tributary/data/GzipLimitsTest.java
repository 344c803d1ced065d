package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Tensor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gzip'd IDX and CSV files may expand only as far as their GzipLimits allow. */
class GzipLimitsTest {
  @TempDir Path dir;

  /** An IDX file of {@code n} zero bytes, gzipped: about 1000:1. */
  private static byte[] zeroIdx(int n) throws IOException {
    return IdxTest.gzip(IdxTest.concat(IdxTest.header(0x08, n), new byte[n]));
  }

  /** {@code rows} lines of "0,0", gzipped. */
  private static byte[] zeroCsv(int rows) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      byte[] line = "0,0\n".getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i < rows; i++) {
        gz.write(line);
      }
    }
    return out.toByteArray();
  }

  @Test
  void idxRead_gzipOverTheRatio_refusedBeforeAllocatingNamingFile() throws IOException {
    Path f = dir.resolve("bomb.idx.gz");
    Files.write(f, zeroIdx(8 << 20));
    assertThatThrownBy(() -> Idx.read(f))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining(f.toString())
        .hasMessageContaining("over 100 times")
        .hasMessageContaining("GzipLimits.maxExpansionRatio");
    Tensor t = Idx.read(f, Idx.DEFAULT_MAX_BYTES, GzipLimits.defaults().withMaxExpansionRatio(2000));
    assertThat(t.size()).isEqualTo(8 << 20);
  }

  @Test
  void idxRead_gzipOverTheCap_refusedNamingTheCap() throws IOException {
    Path f = dir.resolve("big.idx.gz");
    Files.write(f, zeroIdx(3 << 20));
    assertThatThrownBy(() -> Idx.read(f, Idx.DEFAULT_MAX_BYTES, new GzipLimits(10_000, 1 << 20)))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("GzipLimits.maxDecompressedBytes");
  }

  @Test
  void idxRead_smallCompressibleFile_readsUnderTheExemptFloor() throws IOException {
    Path f = dir.resolve("small.idx.gz");
    Files.write(f, zeroIdx(500_000));
    assertThat(Idx.read(f).size()).isEqualTo(500_000);
  }

  @Test
  void csvLoad_gzipOverTheRatio_refusedWhileDecompressing() throws IOException {
    byte[] bomb = zeroCsv(2 << 20); // 8 MiB of text from about 8 KiB
    assertThatThrownBy(() -> CsvLoader.builder().build().load(new ByteArrayInputStream(bomb), "bomb.csv"))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("bomb.csv")
        .hasMessageContaining("over 100 times")
        .hasMessageContaining("GzipLimits.maxExpansionRatio");
    Dataset d = CsvLoader.builder().gzipLimits(GzipLimits.defaults().withMaxExpansionRatio(5000)).build()
        .load(new ByteArrayInputStream(bomb), "bomb.csv");
    assertThat(d.size()).isEqualTo(2 << 20);
  }

  @Test
  void csvLoad_gzipOverTheCap_refused() throws IOException {
    Path f = dir.resolve("zeros.csv");
    Files.write(f, zeroCsv(1 << 18));
    assertThatThrownBy(() -> CsvLoader.builder().gzipLimits(new GzipLimits(10_000, 100_000)).build().load(f))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining(f.toString())
        .hasMessageContaining("more than 100000 bytes");
  }

  @Test
  void maxBytes_floorCapAndOverflow() {
    GzipLimits g = GzipLimits.defaults();
    assertThat(g.maxBytes(10)).isEqualTo(GzipLimits.RATIO_EXEMPT_BYTES);
    assertThat(g.maxBytes(1 << 20)).isEqualTo(100L << 20);
    assertThat(g.maxBytes(Long.MAX_VALUE / 2)).isEqualTo(GzipLimits.DEFAULT_MAX_DECOMPRESSED_BYTES);
    assertThatThrownBy(() -> g.withMaxExpansionRatio(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
