package io.tributary.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SequencedMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/** Damaged files fail with IOExceptions only: no runtime exception, no hang, no huge allocation. */
class FuzzTest {
  private Path dir;
  private byte[] valid;

  @BeforeProperty
  void writeValid() throws IOException {
    dir = Files.createTempDirectory("fuzz");
    Path file = dir.resolve("valid.zip");
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("a", TagContents.builder().parameter("w", Samples.floats(1, 20, 10)).parameter("s", Samples.random(
            io.tributary.tensor.DType.STRING, io.tributary.tensor.Shape.of(3), 2))
        .updaterState("w", List.of(Samples.floats(2, 20, 10))).trainingConfig(ModelRoundTripTest.adam()
            .withUpdaterStateNames(List.of("m")))
        .graph(ModelRoundTripTest.sampleGraph()).build());
    tags.put("b", TagContents.builder().sharedParameter("w", "a").build());
    ModelWriter.save(file, tags);
    valid = Files.readAllBytes(file);
  }

  @AfterProperty
  void cleanUp() throws IOException {
    try (var s = Files.list(dir)) {
      for (Path p : s.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  @Provide
  Arbitrary<List<int[]>> damage() {
    return Arbitraries.integers().between(0, Integer.MAX_VALUE).array(int[].class).ofSize(2).list().ofMinSize(1).ofMaxSize(6);
  }

  @Property(tries = 300)
  void read_damagedFile_onlyIoExceptions(@ForAll("damage") List<int[]> flips) throws IOException {
    byte[] bytes = valid.clone();
    for (int[] f : flips) {
      bytes[f[0] % bytes.length] ^= (byte) (1 + f[1] % 255);
    }
    Path file = dir.resolve("damaged.zip");
    Files.write(file, bytes);
    try (ModelFile m = ModelFile.open(file)) {
      for (ModelTag t : m.allTags()) {
        for (String p : t.parameterNames()) {
          t.parameterInfo(p);
          t.parameter(p);
          t.mapParameter(p);
        }
        t.updaterState();
        t.graph();
      }
    } catch (IOException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    } catch (NoSuchElementException impossible) {
      throw new AssertionError("names come from the file itself", impossible);
    }
  }
}
