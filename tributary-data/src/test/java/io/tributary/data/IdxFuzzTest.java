package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzzes the IDX reader, raw and gzip-compressed: any file reads as a tensor whose size matches
 * its header, or fails with {@link DatasetFormatException}.
 */
class IdxFuzzTest {
  private static final Path FILE = tempFile();

  private static Path tempFile() {
    try {
      Path f = Files.createTempFile("idx-fuzz", ".idx");
      f.toFile().deleteOnExit();
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "5s")
  void read(byte[] input) throws IOException {
    Files.write(FILE, input);
    Tensor t;
    try {
      t = Idx.read(FILE, 1 << 20);
    } catch (DatasetFormatException e) {
      assertThat(e.getMessage()).contains(FILE.toString());
      return;
    }
    if (input.length >= 4 && input[0] == 0 && input[1] == 0) {
      assertThat(t.shape().rank()).isEqualTo(input[3] & 0xff);
      assertThat(4L + 4L * t.shape().rank() + t.size() * t.dtype().itemSize())
          .isEqualTo(input.length);
    }
  }
}
