package io.tributary.format;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;

/**
 * Writes the seed corpus of {@link ModelFileFuzzTest} with {@link ModelWriter}.
 *
 * <p>Run from the module directory with the test class path, e.g. {@code java -cp
 * target/test-classes:target/classes:... io.tributary.format.FuzzSeeds}; it overwrites the
 * {@code seed-*} files under {@code src/test/resources} and leaves other inputs alone.
 */
public final class FuzzSeeds {
  private FuzzSeeds() {}

  /** Writes every seed file of this module. */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0]
        : "src/test/resources/io/tributary/format/ModelFileFuzzTestInputs/open");
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile("seed", ".zip");

    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("a", TagContents.builder().parameter("w", Samples.floats(1, 3, 2))
        .parameter("s", Samples.random(DType.STRING, Shape.of(2), 2))
        .updaterState("w", List.of(Samples.floats(2, 3, 2)))
        .trainingConfig(ModelRoundTripTest.adam().withUpdaterStateNames(List.of("m")))
        .graph(ModelRoundTripTest.sampleGraph()).build());
    tags.put("b", TagContents.builder().sharedParameter("w", "a").build());
    ModelWriter.save(tmp, tags);
    byte[] two = Files.readAllBytes(tmp);
    Files.write(dir.resolve("seed-two-tags"), two);
    Files.write(dir.resolve("seed-truncated"), Arrays.copyOf(two, two.length - 30));

    SequencedMap<String, TagContents> one = new LinkedHashMap<>();
    SequencedMap<String, io.tributary.tensor.Tensor> params = new LinkedHashMap<>();
    params.put("bias", Samples.random(DType.INT64, Shape.of(2), 3));
    one.put("latest", TagContents.of(params));
    ModelWriter.save(tmp, one);
    Files.write(dir.resolve("seed-one-tag"), Files.readAllBytes(tmp));
    Files.delete(tmp);
  }
}
