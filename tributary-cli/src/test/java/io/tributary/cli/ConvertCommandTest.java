package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.Npz;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.ParametersCodec;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConvertCommandTest {
  @TempDir Path dir;

  /** Tensors of every dtype both numpy and proto.ndarray can hold, plus edge shapes. */
  static SequencedMap<String, Tensor> everyDtype() {
    SequencedMap<String, Tensor> m = new LinkedHashMap<>(TestFiles.sample());
    for (DType d : DType.values()) {
      if (d != DType.STRING && d != DType.BFLOAT16) {
        m.put("z_" + d.typeName(), ramp(d, Shape.of(2, 3)));
      }
    }
    m.put("words", Tensor.ofStrings(Shape.of(2), "federated", "ünïcode"));
    m.put("empty", Tensor.zeros(DType.FLOAT32, Shape.of(0, 4)));
    m.put("scalar", Tensor.scalar(-0.0));
    m.put("nan", Tensor.ofDoubles(Shape.of(2), Double.NaN, Double.NEGATIVE_INFINITY));
    return m;
  }

  private static Tensor ramp(DType dtype, Shape shape) {
    TensorBuilder b = TensorBuilder.allocate(dtype, shape);
    for (int i = 0; i < shape.size(); i++) {
      if (dtype.isComplex()) {
        b.setComplex(i, i - 2.5, 1.0 / (i + 1));
      } else {
        b.setFromDouble(i, dtype == DType.BOOL ? i % 2 : i * 7 - (dtype.kind() == DType.Kind.UNSIGNED ? 0 : 9));
      }
    }
    return b.build();
  }

  @ParameterizedTest(name = "via {0}")
  @MethodSource("pbTypes")
  void convert_npzToPbToNpz_keepsNamesOrderAndValues(String tensorType, boolean keepsNames) throws IOException {
    SequencedMap<String, Tensor> original = everyDtype();
    Path npz = TestFiles.npz(dir, "in.npz", original);
    Path pb = dir.resolve("mid.pb");
    Path back = dir.resolve("back.npz");

    CliRun toPb = CliRun.of("convert", npz.toString(), pb.toString(), "--tensor-type", tensorType);
    CliRun toNpz = CliRun.of("convert", pb.toString(), back.toString());

    assertThat(toPb.exitCode()).as(toPb.err()).isZero();
    assertThat(toPb.out()).contains("wrote " + original.size() + " tensors to " + pb + " (" + tensorType + ")");
    assertThat(toNpz.exitCode()).as(toNpz.err()).isZero();
    assertThat(ParametersCodec.decode(Files.readAllBytes(pb)).tensorType()).isEqualTo(tensorType);
    SequencedMap<String, Tensor> result = Npz.read(back);
    List<String> expectedNames = keepsNames ? List.copyOf(original.keySet()) : positionalNames(original.size());
    assertThat(result.keySet()).containsExactlyElementsOf(expectedNames);
    assertThat(new ArrayList<>(result.values())).containsExactlyElementsOf(original.values());
  }

  static Stream<Arguments> pbTypes() {
    return Stream.of(Arguments.of("proto.ndarray", true), Arguments.of("numpy.ndarray", false));
  }

  @Test
  void convert_pbWithoutTensorType_defaultsToProtoNdarray() throws IOException {
    Path npz = TestFiles.npz(dir, "in.npz", TestFiles.sample());
    Path pb = dir.resolve("out.pb");

    CliRun run = CliRun.of("convert", npz.toString(), pb.toString());

    assertThat(run.exitCode()).isZero();
    Parameters p = ParametersCodec.decode(Files.readAllBytes(pb));
    assertThat(p.tensorType()).isEqualTo("proto.ndarray");
    assertThat(SerializerRegistry.load().forType(p.tensorType()).deserializeNamed(p))
        .containsExactlyEntriesOf(TestFiles.sample());
  }

  @Test
  void convert_pbToPb_reencodesToTheRequestedTensorType() throws IOException {
    Path proto = TestFiles.pb(dir, "proto.pb", "proto.ndarray", TestFiles.sample());
    Path numpy = dir.resolve("numpy.pb");
    Path protoAgain = dir.resolve("proto-again.pb");

    CliRun first = CliRun.of("convert", proto.toString(), numpy.toString(), "--tensor-type", "numpy.ndarray");
    CliRun second = CliRun.of("convert", numpy.toString(), protoAgain.toString());

    assertThat(first.exitCode()).isZero();
    assertThat(second.exitCode()).isZero();
    Parameters p = ParametersCodec.decode(Files.readAllBytes(numpy));
    assertThat(p.tensorType()).isEqualTo("numpy.ndarray");
    Parameters again = ParametersCodec.decode(Files.readAllBytes(protoAgain));
    assertThat(SerializerRegistry.load().forType("proto.ndarray").deserialize(again))
        .containsExactlyElementsOf(TestFiles.sample().values());
  }

  @Test
  void convert_npzToNpz_reproducesTheArchive() throws IOException {
    Path in = TestFiles.npz(dir, "in.npz", everyDtype());
    Path out = dir.resolve("copy.npz");

    CliRun run = CliRun.of("convert", in.toString(), out.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(Npz.read(out)).containsExactlyEntriesOf(everyDtype());
    assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(in));
  }

  @Test
  void convert_npyToPbAndOneTensorBackToNpy_keepsTheTensor() throws IOException {
    Tensor t = Tensor.ofFloats(Shape.of(2, 2), 1f, 2f, 3f, 4f);
    Path npy = TestFiles.npy(dir, "one.npy", t);
    Path pb = dir.resolve("one.pb");
    Path back = dir.resolve("back.npy");

    assertThat(CliRun.of("convert", npy.toString(), pb.toString()).exitCode()).isZero();
    assertThat(CliRun.of("convert", pb.toString(), back.toString()).exitCode()).isZero();

    assertThat(Npy.read(back)).isEqualTo(t);
    assertThat(Files.readAllBytes(back)).isEqualTo(Files.readAllBytes(npy));
  }

  @Test
  void convert_existingOutput_isReplaced() throws IOException {
    Path in = TestFiles.npz(dir, "in.npz", TestFiles.sample());
    Path out = Files.writeString(dir.resolve("out.npz"), "old contents");

    CliRun run = CliRun.of("convert", in.toString(), out.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(Npz.read(out)).containsExactlyEntriesOf(TestFiles.sample());
  }

  @Test
  void convert_failure_leavesExistingOutputUntouchedAndNoTemporaryFile() throws IOException {
    SequencedMap<String, Tensor> withBfloat16 = new LinkedHashMap<>();
    withBfloat16.put("w", Tensor.zeros(DType.BFLOAT16, Shape.of(3)));
    Path in = TestFiles.pb(dir, "bf16.pb", "proto.ndarray", withBfloat16);
    Path out = Files.writeString(dir.resolve("out.npz"), "old contents");

    CliRun run = CliRun.of("convert", in.toString(), out.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().startsWith("tributary convert: " + out + ": ");
    assertThat(out).hasContent("old contents");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).extracting(p -> p.getFileName().toString()).containsExactlyInAnyOrder("bf16.pb", "out.npz");
    }
  }

  private static List<String> positionalNames(int n) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      names.add("arr_" + i);
    }
    return names;
  }
}
