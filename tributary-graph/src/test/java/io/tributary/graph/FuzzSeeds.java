package io.tributary.graph;

import io.tributary.graph.models.Models;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes the seed corpus of {@link GraphFbFuzzTest} with {@link GraphFb#toBytes}.
 *
 * <p>Run from the module directory with the test class path, e.g. {@code java -cp
 * target/test-classes:target/classes:... io.tributary.graph.FuzzSeeds}; it overwrites the
 * {@code seed-*} files under {@code src/test/resources} and leaves other inputs alone.
 */
public final class FuzzSeeds {
  private FuzzSeeds() {}

  /** Writes every seed file of this module. */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0]
        : "src/test/resources/io/tributary/graph/GraphFbFuzzTestInputs/fromBytes");
    Files.createDirectories(dir);
    byte[] mclr = GraphFb.toBytes(Models.mclr().graph());
    Files.write(dir.resolve("seed-mclr"), mclr);
    Files.write(dir.resolve("seed-every-argument-kind"),
        GraphFb.toBytes(GraphFbTest.withEveryArgumentKind()));
    Files.write(dir.resolve("seed-truncated"), Arrays.copyOf(mclr, mclr.length / 2));
  }
}
