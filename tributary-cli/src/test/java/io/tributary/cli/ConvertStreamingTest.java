package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.npy.Npz;
import io.tributary.tensor.serialization.NumpyNdarraySerializer;
import io.tributary.tensor.serialization.ParametersCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code convert} of an .npz to a numpy.ndarray .pb streams: it converts an archive larger than
 * the JVM's heap, writes the bytes the general path writes, and reports bad archive data found
 * while writing against IN, leaving no output.
 */
class ConvertStreamingTest {
  private static final int HEAP_MB = 64;

  @TempDir Path dir;

  /**
   * Six float32 arrays of 16 MB each of random bits (96 MB in all, over the child's 64 MB heap,
   * and incompressible, so a deflated archive stays within the read limits) and a scalar.
   */
  private static LinkedHashMap<String, Tensor> largerThanTheHeap() {
    LinkedHashMap<String, Tensor> m = new LinkedHashMap<>();
    SplittableRandom random = new SplittableRandom(22);
    byte[] chunk = new byte[1 << 20];
    for (int k = 0; k < 6; k++) {
      TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, Shape.of(4000, 1000));
      for (long at = 0; at < 16_000_000; at += chunk.length) {
        random.nextBytes(chunk);
        b.putBytes(at, chunk, 0, (int) Math.min(chunk.length, 16_000_000 - at));
      }
      m.put("w" + k, b.build());
    }
    m.put("step", Tensor.scalar(7L));
    return m;
  }

  private record Child(int exitCode, String output) {}

  /** Runs {@code tributary args...} in a JVM of its own with a heap of {@value #HEAP_MB} MB. */
  private Child runWithSmallHeap(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + HEAP_MB + "m", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(args));
    Path log = dir.resolve("child.log");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("the child JVM did not finish in 120 s");
    }
    String output = Files.readString(log);
    Files.delete(log);
    return new Child(p.exitValue(), output);
  }

  @ParameterizedTest(name = "deflated: {0}")
  @ValueSource(booleans = {false, true})
  void convert_npzLargerThanTheHeap_streamsTheSameBytesTheGeneralPathWrites(boolean deflated) throws Exception {
    LinkedHashMap<String, Tensor> tensors = largerThanTheHeap();
    Path in = dir.resolve("big.npz");
    Npz.write(in, tensors, deflated);
    assertThat(tensors.values().stream().mapToLong(Tensor::byteSize).sum()).isGreaterThan(HEAP_MB << 20);
    Path out = dir.resolve("big.pb");

    Child run = runWithSmallHeap("convert", in.toString(), out.toString(), "--tensor-type", "numpy.ndarray");

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output()).contains("wrote 7 tensors to " + out + " (numpy.ndarray)");
    byte[] expected = ParametersCodec.encode(new NumpyNdarraySerializer().serializeNamed(Npz.read(in)));
    assertThat(Files.readAllBytes(out)).isEqualTo(expected);
  }

  @Test
  void convert_npzLargerThanTheHeap_doesNotFitThroughTheGeneralPath() throws Exception {
    // The control: proto.ndarray output holds every tensor, which this heap cannot.
    Path in = dir.resolve("big.npz");
    Npz.write(in, largerThanTheHeap(), false);

    Child run = runWithSmallHeap("convert", in.toString(), dir.resolve("big.pb").toString(),
        "--tensor-type", "proto.ndarray");

    assertThat(run.exitCode()).as(run.output()).isEqualTo(1);
    // The heap's end is one line naming it, not a stack trace.
    assertThat(run.output()).contains("tributary convert: out of memory (")
        .contains("heap limit of").doesNotContain("\tat ");
  }

  @Test
  void convert_corruptDataFoundWhileStreaming_namesInAndLeavesOutputUntouched() throws IOException {
    LinkedHashMap<String, Tensor> tensors = new LinkedHashMap<>();
    tensors.put("a", Tensor.zeros(DType.FLOAT32, Shape.of(100)));
    tensors.put("b", Tensor.zeros(DType.FLOAT64, Shape.of(100)));
    Path in = dir.resolve("in.npz");
    Npz.write(in, tensors, false);
    byte[] raw = Files.readAllBytes(in);
    raw[raw.length - 200] ^= 1; // inside b's zeros, stored: the CRC no longer matches
    Files.write(in, raw);
    Path out = Files.writeString(dir.resolve("out.pb"), "old contents");

    CliRun run = CliRun.of("convert", in.toString(), out.toString(), "--tensor-type", "numpy.ndarray");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString()
        .startsWith("tributary convert: " + in + ": entry 'b.npy': CRC-32 mismatch");
    assertThat(out).hasContent("old contents");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).extracting(p -> p.getFileName().toString()).containsExactlyInAnyOrder("in.npz", "out.pb");
    }
  }

  @Test
  void convert_npzToNumpyNdarrayIntoMissingDirectory_namesOut() throws IOException {
    Path in = TestFiles.npz(dir, "in.npz", TestFiles.sample());
    Path out = dir.resolve("no/such/out.pb");

    CliRun run = CliRun.of("convert", in.toString(), out.toString(), "--tensor-type", "numpy.ndarray");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString()
        .startsWith("tributary convert: " + out + ": its directory").endsWith("does not exist");
  }
}
