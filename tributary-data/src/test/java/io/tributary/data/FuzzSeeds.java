package io.tributary.data;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes the seed corpus of {@link IdxFuzzTest} and {@link CsvLoaderFuzzTest}.
 *
 * <p>Run from the module directory with the test class path, e.g. {@code java -cp
 * target/test-classes:target/classes:... io.tributary.data.FuzzSeeds}; it overwrites the
 * {@code seed-*} files under {@code src/test/resources} and leaves other inputs alone. CSV seeds
 * start with the bytes {@link CsvLoaderFuzzTest} turns into options.
 */
public final class FuzzSeeds {
  private FuzzSeeds() {}

  /** Writes every seed file of this module. */
  public static void main(String[] args) throws IOException {
    Path root = Path.of(args.length > 0 ? args[0] : "src/test/resources/io/tributary/data");
    Path idx = root.resolve("IdxFuzzTestInputs/read");
    Files.createDirectories(idx);
    byte[] images = IdxTest.concat(IdxTest.header(0x08, 2, 3, 3), new byte[18]);
    byte[] labels = IdxTest.concat(IdxTest.header(0x08, 2), new byte[] {3, 7});
    byte[] doubles = IdxTest.concat(IdxTest.header(0x0E, 2), new byte[16]);
    Files.write(idx.resolve("seed-images"), images);
    Files.write(idx.resolve("seed-labels"), labels);
    Files.write(idx.resolve("seed-float64"), doubles);
    Files.write(idx.resolve("seed-images-gzip"), IdxTest.gzip(images));
    Files.write(idx.resolve("seed-truncated"), Arrays.copyOf(images, images.length - 4));

    Path csv = root.resolve("CsvLoaderFuzzTestInputs/load");
    Files.createDirectories(csv);
    Files.write(csv.resolve("seed-plain"), csv(false, "0.5,1,2\n-1e-3,4,0\n\n3,\"2.5\",1\n"));
    Files.write(csv.resolve("seed-header"), csv(true, "a,b,label\n1,2,0\n3,4,1\n"));
    Files.write(csv.resolve("seed-gzip"), csvGzip("1,2,3\n4,5,6\n"));
    Files.write(csv.resolve("seed-bad-label"), csv(false, "1,2,-3\n"));
  }

  /**
   * The fuzz input for {@code text}: the CSV bytes, then bytes from which the fuzzed data provider
   * (which takes primitives from the end of the input) reads the loader's options.
   */
  private static byte[] csv(boolean header, String text) {
    return withOptions(text.getBytes(StandardCharsets.UTF_8), header);
  }

  private static byte[] csvGzip(String text) throws IOException {
    return withOptions(IdxTest.gzip(text.getBytes(StandardCharsets.UTF_8)), false);
  }

  private static byte[] withOptions(byte[] csv, boolean header) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(csv);
    out.writeBytes(new byte[] {(byte) (header ? 0 : 1), (byte) (header ? 1 : 0), 0, 0, 0, 0, 0,
        0, (byte) 0xff, (byte) 0xff, 0x0f, (byte) 0xff, 0x03, 0, 0, 0});
    return out.toByteArray();
  }
}
