package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.ParametersCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every unreadable input makes inspect and convert print one line naming the file, and exit 2. */
class BadInputTest {
  @TempDir static Path dir;

  /** Makes the bad file in a directory and returns its path. */
  interface Maker {
    Path make(Path dir) throws IOException;
  }

  static Stream<Arguments> badFiles() {
    return Stream.of(
        Arguments.of("missing file", (Maker) d -> d.resolve("absent.npz"), "no such file"),
        Arguments.of("unknown extension", (Maker) d -> write(d, "weights.txt", "1 2 3"), "unknown file type"),
        Arguments.of("npy that is text", (Maker) d -> write(d, "text.npy", "not numpy at all"), ""),
        Arguments.of("truncated npy", (Maker) d -> truncated(d, "cut.npy", validNpy(d)), ""),
        Arguments.of("npy with trailing bytes", (Maker) d -> appended(d, "long.npy", validNpy(d)), "unexpected bytes"),
        Arguments.of("npz that is not a zip", (Maker) d -> write(d, "junk.npz", "PK but not really"), ""),
        Arguments.of("truncated npz", (Maker) d -> truncated(d, "cut.npz", validNpz(d)), ""),
        Arguments.of("truncated pb", (Maker) d -> truncated(d, "cut.pb", validPb(d)), ""),
        Arguments.of("pb of random bytes", (Maker) d -> bytes(d, "junk.pb", new byte[] {(byte) 0xff, 0x7f, 0x01, 0x00}), ""),
        Arguments.of("pb with an unknown tensor type", (Maker) d -> unknownType(d), "tensor.flatbuffer"),
        Arguments.of("directory named like a file", (Maker) d -> Files.createDirectories(d.resolve("dir.npz")),
            "is a directory"));
  }

  static Stream<Arguments> inspectAndConvert() {
    return badFiles().flatMap(a -> Stream.of(
        Arguments.of("inspect", a.get()[0], a.get()[1], a.get()[2]),
        Arguments.of("convert", a.get()[0], a.get()[1], a.get()[2])));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("inspectAndConvert")
  void command_badInput_printsOneLineNamingTheFileAndExitsTwo(String command, String label, Maker maker,
      String problem) throws IOException {
    Path bad = maker.make(dir);
    Path out = dir.resolve("out-" + label.replace(' ', '-') + ".npz");

    CliRun run = command.equals("inspect")
        ? CliRun.of("inspect", bad.toString())
        : CliRun.of("convert", bad.toString(), out.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertOneLine(run, "tributary " + command + ": " + bad + ": ", problem);
    assertThat(out).doesNotExist();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badFiles")
  void convert_badInputToNumpyNdarrayPb_printsTheLineOfNpzOutput(String label, Maker maker, String problem)
      throws IOException {
    // .npz to numpy.ndarray .pb streams; every bad input reads as it does for the general path.
    Path bad = maker.make(dir);
    Path pb = dir.resolve("out.pb");

    CliRun general = CliRun.of("convert", bad.toString(), dir.resolve("out.npz").toString());
    CliRun run = CliRun.of("convert", bad.toString(), pb.toString(), "--tensor-type", "numpy.ndarray");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).isEqualTo(general.err());
    assertThat(pb).doesNotExist();
  }

  static Stream<Arguments> badConversions() {
    return Stream.of(
        Arguments.of("unknown --tensor-type", "out.pb", List.of("--tensor-type", "tensor.flatbuffer"), "tensor.flatbuffer"),
        Arguments.of("--tensor-type for npz output", "out.npz", List.of("--tensor-type", "numpy.ndarray"), "--tensor-type"),
        Arguments.of("unknown output extension", "out.tar", List.of(), "unknown file type"),
        Arguments.of(".zip model output without --tag", "out.zip", List.of(), "needs --tag"),
        Arguments.of(".zip model output with an invalid tag", "out.zip", List.of("--tag", "a/b"), "not a portable file name"),
        Arguments.of("--tag without a model file", "out.npz", List.of("--tag", "t"), "--tag applies only"),
        Arguments.of("missing output directory", "no/such/dir/out.npz", List.of(), "does not exist"),
        Arguments.of("several tensors into one .npy", "out.npy", List.of(), "exactly one tensor"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badConversions")
  void convert_badOutput_printsOneLineNamingOutAndExitsTwo(String label, String outName, List<String> options,
      String problem) throws IOException {
    Path in = validNpz(dir);
    Path out = dir.resolve(outName);
    String[] args = Stream.concat(Stream.of("convert", in.toString(), out.toString()), options.stream())
        .toArray(String[]::new);

    CliRun run = CliRun.of(args);

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertOneLine(run, "tributary convert: " + out + ": ", problem);
    assertThat(out).doesNotExist();
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left).noneMatch(p -> p.getFileName().toString().endsWith(".tmp"));
    }
  }

  private static void assertOneLine(CliRun run, String prefix, String problem) {
    assertThat(run.errLines()).as(run.err()).hasSize(1);
    String line = run.errLines()[0];
    assertThat(line).startsWith(prefix).contains(problem);
    assertThat(line.substring(prefix.length())).as("a problem after the file name").isNotBlank();
    assertThat(line).doesNotContain("Exception", "\tat ");
  }

  private static Path write(Path d, String name, String text) throws IOException {
    return Files.writeString(d.resolve(name), text, StandardCharsets.UTF_8);
  }

  private static Path bytes(Path d, String name, byte[] content) throws IOException {
    return Files.write(d.resolve(name), content);
  }

  private static Path truncated(Path d, String name, Path valid) throws IOException {
    byte[] all = Files.readAllBytes(valid);
    return bytes(d, name, Arrays.copyOf(all, all.length - 5));
  }

  private static Path appended(Path d, String name, Path valid) throws IOException {
    byte[] all = Files.readAllBytes(valid);
    return bytes(d, name, Arrays.copyOf(all, all.length + 3));
  }

  private static Path validNpy(Path d) throws IOException {
    return TestFiles.npy(d, "valid.npy", Tensor.ofFloats(Shape.of(4), 1f, 2f, 3f, 4f));
  }

  private static Path validNpz(Path d) throws IOException {
    return TestFiles.npz(d, "valid.npz", TestFiles.sample());
  }

  private static Path validPb(Path d) throws IOException {
    return TestFiles.pb(d, "valid.pb", "proto.ndarray", TestFiles.sample());
  }

  private static Path unknownType(Path d) throws IOException {
    byte[] message = ParametersCodec.encode(Parameters.ofTensors("tensor.flatbuffer", List.of(new byte[] {1, 2})));
    return bytes(d, "unknown-type.pb", message);
  }
}
