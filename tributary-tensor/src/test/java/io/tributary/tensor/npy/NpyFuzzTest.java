package io.tributary.tensor.npy;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.tensor.Tensor;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Fuzzes the NPY reader: any bytes decode to a tensor or fail with {@link NpyException}.
 *
 * <p>A tensor that decodes is written again and must read back equal, and the viewing and
 * streaming readers must agree with {@link Npy#fromBytes}. The committed corpus lives in
 * {@code NpyFuzzTestInputs/}; see docs/security.md for how to fuzz longer.
 */
class NpyFuzzTest {
  @FuzzTest(maxDuration = "5s")
  void fromBytes(byte[] input) throws IOException {
    Tensor read;
    try {
      read = Npy.fromBytes(input);
    } catch (NpyException e) {
      return;
    }
    assertThat(Npy.view(input.clone())).isEqualTo(read);
    assertThat(Npy.read(new ByteArrayInputStream(input), input.length)).isEqualTo(read);
    assertThat(Npy.readHeader(input).shape()).isEqualTo(read.shape());
    byte[] written;
    try {
      written = Npy.toBytes(read);
    } catch (NpyUnsupportedDtypeException e) {
      return;
    }
    assertThat(Npy.fromBytes(written)).isEqualTo(read);
  }
}
