package io.tributary.tensor.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** NPZ archives may expand only so far in total, and entries may not share bytes. */
class NpzLimitsTest {
  @TempDir Path dir;

  /** Three arrays of 512 KiB of zeros each: 1.5 MiB from an archive of a few KiB. */
  private static LinkedHashMap<String, Tensor> zeros() {
    LinkedHashMap<String, Tensor> arrays = new LinkedHashMap<>();
    for (String name : new String[] {"a", "b", "c"}) {
      arrays.put(name, Tensor.zeros(DType.FLOAT32, Shape.of(128, 1024)));
    }
    return arrays;
  }

  private Path file(byte[] zip) throws IOException {
    Path f = dir.resolve("archive.npz");
    Files.write(f, zip);
    return f;
  }

  @Test
  void readPath_entriesTogetherOverTheRatio_refusedBeforeReadingNamingFileAndEntry() throws IOException {
    Path f = file(Npz.toBytes(zeros(), true));
    assertThatThrownBy(() -> Npz.read(f))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining(f.toString())
        .hasMessageContaining("entry 'b.npy'")
        .hasMessageContaining("in total, over 100 times")
        .hasMessageContaining("maxExpansionRatio");
  }

  @Test
  void readBytes_entriesTogetherOverTheRatio_refusedWhenTheLastHeaderIsRead() throws IOException {
    // ZipOutputStream's deflated entries declare no sizes up front: the array header is judged.
    byte[] zip = Npz.toBytes(zeros(), true);
    assertThatThrownBy(() -> Npz.read(zip))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining("entry 'b.npy': expands to")
        .hasMessageContaining("over 100 times");
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void read_ratioRaised_readsTheSameArchive(boolean fromFile) throws IOException {
    byte[] zip = Npz.toBytes(zeros(), true);
    NpzReadOptions options = NpzReadOptions.defaults().withMaxExpansionRatio(1032);
    LinkedHashMap<String, Tensor> read = fromFile ? Npz.read(file(zip), options) : Npz.read(zip, options);
    assertThat(read).containsExactlyEntriesOf(zeros());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void read_deflatedOverTheInflatedCap_refusedButStoredReads(boolean fromFile) throws IOException {
    LinkedHashMap<String, Tensor> arrays = new LinkedHashMap<>();
    arrays.put("w", Tensor.zeros(DType.FLOAT32, Shape.of(1000)));
    NpzReadOptions options = NpzReadOptions.defaults().withMaxInflatedBytes(2000);
    byte[] deflated = Npz.toBytes(arrays, true);
    assertThatThrownBy(() -> {
      if (fromFile) {
        Npz.read(file(deflated), options);
      } else {
        Npz.read(deflated, options);
      }
    }).isInstanceOf(NpyException.class)
        .hasMessageContaining("entry 'w.npy'")
        .hasMessageContaining("2000 bytes")
        .hasMessageContaining("maxInflatedBytes");
    byte[] stored = Npz.toBytes(arrays, false);
    LinkedHashMap<String, Tensor> read = fromFile ? Npz.read(file(stored), options) : Npz.read(stored, options);
    assertThat(read).containsExactlyEntriesOf(arrays);
  }

  @Test
  void readPath_twoEntriesSharingOneLocalHeader_refusedAsOverlapping() throws IOException {
    byte[] npy = NpzBadInputTest.array(10);
    byte[] zip = NpzBadInputTest.zip(false, "a.npy", npy, "b.npy", npy);
    // The second directory record points at the first entry's bytes.
    byte[] shared = patchCentralRecord(zip, 1, 42, 0);
    Path f = file(shared);
    assertThatThrownBy(() -> Npz.read(f))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining(f.toString())
        .hasMessageContaining("overlap")
        .hasMessageContaining("zip bombs");
  }

  @Test
  void readPath_entryRunningIntoTheNext_refusedAsOverlapping() throws IOException {
    byte[] npy = NpzBadInputTest.array(10);
    byte[] zip = NpzBadInputTest.zip(false, "a.npy", npy, "b.npy", npy);
    // The first entry claims more stored bytes than lie before the second's header.
    byte[] longer = patchCentralRecord(patchCentralRecord(zip, 0, 20, npy.length + 64), 0, 24, npy.length + 64);
    assertThatThrownBy(() -> Npz.read(file(longer)))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining("entry 'a.npy'")
        .hasMessageContaining("overlap entry 'b.npy'");
  }

  @Test
  void maxTotalBytes_smallOrHugeArchive_exemptFloorAndNoOverflow() {
    NpzReadOptions o = NpzReadOptions.defaults();
    assertThat(o.maxTotalBytes(10)).isEqualTo(NpzReadOptions.RATIO_EXEMPT_BYTES);
    assertThat(o.maxTotalBytes(1L << 30)).isEqualTo(100L << 30);
    assertThat(o.maxTotalBytes(Long.MAX_VALUE / 2)).isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(() -> new NpzReadOptions(0, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  /** Overwrites a 4-byte field of the {@code index}th central directory record. */
  static byte[] patchCentralRecord(byte[] zip, int index, int fieldOffset, long value) {
    byte[] out = zip.clone();
    int seen = 0;
    for (int i = 0; i + 4 <= out.length; i++) {
      if (out[i] == 'P' && out[i + 1] == 'K' && out[i + 2] == 1 && out[i + 3] == 2 && seen++ == index) {
        for (int k = 0; k < 4; k++) {
          out[i + fieldOffset + k] = (byte) (value >>> (8 * k));
        }
        return out;
      }
    }
    throw new AssertionError("no central directory record " + index);
  }
}
