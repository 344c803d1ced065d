package io.tributary.core.proto;

import io.tributary.core.types.RandomTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

/**
 * Writes the seed corpus of this module's fuzz tests from the project's own writers.
 *
 * <p>Run from the module directory with the test class path, e.g. {@code java -cp
 * target/test-classes:target/classes:... io.tributary.core.proto.FuzzSeeds}; it overwrites the
 * {@code seed-*} files under {@code src/test/resources} and leaves other inputs alone.
 */
public final class FuzzSeeds {
  private FuzzSeeds() {}

  /** Writes every seed file of this module. */
  public static void main(String[] args) throws IOException {
    Path root = Path.of(args.length > 0 ? args[0] : "src/test/resources/io/tributary/core/proto");
    Path computations = root.resolve("ComputationProtosFuzzTestInputs/fromBytes");
    Path types = root.resolve("TypeProtosFuzzTestInputs/fromBytes");
    byte[] last = new byte[0];
    for (int seed = 0; seed < 6; seed++) {
      last = ComputationProtos.toBytes(new RandomComputations(new Random(seed)).any(3).block());
      write(computations, "seed-valid-" + seed, last);
      write(types, "seed-valid-" + seed, TypeProtos.toBytes(new RandomTypes(new Random(seed)).any(3)));
    }
    write(computations, "seed-truncated", Arrays.copyOf(last, last.length / 2));
    write(types, "seed-truncated", new byte[] {0x0a, 0x7f, 1});
  }

  private static void write(Path dir, String name, byte[] bytes) throws IOException {
    Files.createDirectories(dir);
    Files.write(dir.resolve(name), bytes);
  }
}
