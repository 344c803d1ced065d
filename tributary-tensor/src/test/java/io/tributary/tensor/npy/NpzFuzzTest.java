package io.tributary.tensor.npy;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.util.LinkedHashMap;

/**
 * Fuzzes the in-memory NPZ reader: any bytes read as named tensors or fail with
 * {@link NpyException}.
 *
 * <p>An archive that reads is written again, stored and compressed, and must read back equal.
 */
class NpzFuzzTest {
  @FuzzTest(maxDuration = "5s")
  void read(byte[] input) throws IOException {
    LinkedHashMap<String, Tensor> read;
    try {
      read = Npz.read(input, NpzReadOptions.defaults());
    } catch (NpyException e) {
      return;
    }
    byte[] stored;
    byte[] deflated;
    try {
      stored = Npz.toBytes(read, false);
      deflated = Npz.toBytes(read, true);
    } catch (NpyUnsupportedDtypeException e) {
      return;
    }
    assertThat(Npz.read(stored)).containsExactlyEntriesOf(read);
    assertThat(Npz.read(deflated)).containsExactlyEntriesOf(read);
  }
}
