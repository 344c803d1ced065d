package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import io.tributary.tensor.serialization.ProtoNdarraySerializer;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code convert} leaves no temporary files behind, and replaces its output as model files are replaced. */
class ConvertTemporaryFilesTest {
  @TempDir Path dir;

  private List<String> temporaries() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).sorted().toList();
    }
  }

  /** What a killed convert leaves: a temporary file that no live writer holds. */
  private Path abandoned(String output) throws IOException {
    return Files.write(dir.resolve("." + output + "." + UUID.randomUUID() + ".tmp"), new byte[] {1, 2, 3});
  }

  @ParameterizedTest
  @ValueSource(strings = {"out.npz", "out.pb", "out.npy", "out.zip"})
  void convert_abandonedTemporariesInTheDirectory_removedByTheNextRun(String output) throws IOException {
    Path in = TestFiles.npz(dir, "in.npz", single());
    abandoned(output);
    abandoned("other.npz");
    Path unrelated = Files.write(dir.resolve(".notes.tmp"), new byte[] {1});

    CliRun run = output.endsWith(".zip")
        ? CliRun.of("convert", in.toString(), dir.resolve(output).toString(), "--tag", "t1")
        : CliRun.of("convert", in.toString(), dir.resolve(output).toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(dir.resolve(output)).exists();
    assertThat(temporaries()).as("only a file convert did not name is left").containsExactly(".notes.tmp");
    assertThat(unrelated).exists();
  }

  @Test
  void convert_temporaryOfAWriterStillRunning_leftAlone() throws IOException {
    Path in = TestFiles.npz(dir, "in.npz", single());
    Path live = abandoned("out.npz");
    try (FileChannel ch = FileChannel.open(live, StandardOpenOption.WRITE)) {
      ch.lock();
      CliRun run = CliRun.of("convert", in.toString(), dir.resolve("out.pb").toString());
      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(live).as("a locked temporary file belongs to a live writer").exists();
    }
  }

  @Test
  void convert_failingWhileWriting_leavesNoTemporaryAndKeepsTheOldOutput() throws IOException {
    SequencedMap<String, Tensor> bf16 = new LinkedHashMap<>();
    bf16.put("w", Tensor.zeros(DType.BFLOAT16, Shape.of(3)));
    Path in = TestFiles.pb(dir, "in.pb", ProtoNdarraySerializer.TENSOR_TYPE, bf16);
    Path out = TestFiles.npz(dir, "out.npz", single());
    byte[] before = Files.readAllBytes(out);

    CliRun run = CliRun.of("convert", in.toString(), out.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("bfloat16");
    assertThat(temporaries()).isEmpty();
    assertThat(Files.readAllBytes(out)).isEqualTo(before);
  }

  @Test
  void convert_existingOutput_replacedKeepingItsPermissions() throws IOException {
    Path in = TestFiles.npz(dir, "in.npz", single());
    Path out = TestFiles.npz(dir, "out.npz", new LinkedHashMap<>());
    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-r-----"));

    CliRun run = CliRun.of("convert", in.toString(), out.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(Npz.read(out)).containsExactlyEntriesOf(single());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-r-----");
    assertThat(temporaries()).isEmpty();
  }

  private static SequencedMap<String, Tensor> single() {
    SequencedMap<String, Tensor> m = new LinkedHashMap<>();
    m.put("w", Tensor.ofFloats(Shape.of(2), 1f, 2f));
    return m;
  }
}
