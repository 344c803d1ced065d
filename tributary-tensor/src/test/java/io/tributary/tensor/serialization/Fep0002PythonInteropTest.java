package io.tributary.tensor.serialization;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.testing.PythonEnv;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Python protobuf, generated from our parameters.proto with grpcio-tools, reads what we write and
 * writes what we read; numpy loads our {@code numpy.ndarray} tensors as Flower does.
 */
class Fep0002PythonInteropTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @TempDir static Path dir;
  private static PythonEnv python;
  private static Path script;

  @BeforeAll
  static void generatePythonProtobuf() throws Exception {
    python = PythonEnv.require("grpc_tools", "google.protobuf", "numpy");
    Path protoRoot = PythonEnv.projectRoot().resolve("tributary-tensor/src/main/proto");
    Files.createDirectories(dir.resolve("gen"));
    python.run(dir, TIMEOUT, "-m", "grpc_tools.protoc", "-I" + protoRoot, "--python_out=" + dir.resolve("gen"),
        "flwr/proto/parameters.proto").assertOk();
    script = dir.resolve("fep0002_interop.py");
    try (InputStream in = Fep0002PythonInteropTest.class.getResourceAsStream("/interop/fep0002_interop.py")) {
      Files.copy(in, script);
    }
  }

  /** Deterministic, finite values: the Python float path would quiet a signalling NaN. */
  private static Tensor sample(DType dtype, Shape shape) {
    TensorBuilder b = TensorBuilder.allocate(dtype, shape);
    for (long i = 0; i < shape.size(); i++) {
      double v = (i % 2 == 0 ? 1 : -1) * (i * 3.25 + 0.5);
      switch (dtype.kind()) {
        case STRING -> b.setString(i, i % 4 == 0 ? "" : "\u00e9l\u00e9ment " + i + " \uD83C\uDF32");
        case COMPLEX -> b.setComplex(i, v, 1.0 / (i + 1));
        case BOOL -> b.setBoolean(i, i % 3 != 1);
        case UNSIGNED -> b.setFromDouble(i, i * 41 + 150);
        default -> b.setFromDouble(i, v);
      }
    }
    return b.build();
  }

  private static LinkedHashMap<String, Tensor> everyDtype(boolean includeBfloat16) {
    LinkedHashMap<String, Tensor> tensors = new LinkedHashMap<>();
    for (DType d : DType.values()) {
      if (d != DType.BFLOAT16 || includeBfloat16) {
        tensors.put("layer/" + d + "/w\u00e9ight", sample(d, Shape.of(2, 3)));
      }
    }
    tensors.put("scalar", sample(DType.FLOAT64, Shape.scalar()));
    tensors.put("empty", sample(DType.FLOAT32, Shape.of(0, 4)));
    tensors.put("big", sample(DType.FLOAT32, Shape.of(5, 7, 3)));
    tensors.put("extremes", Tensor.ofLongs(Shape.of(3), Long.MIN_VALUE, -1, Long.MAX_VALUE));
    return tensors;
  }

  private static String expectations(Map<String, Tensor> tensors) {
    StringBuilder out = new StringBuilder();
    HexFormat hex = HexFormat.of();
    for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
      Tensor t = e.getValue();
      StringJoiner shape = new StringJoiner(",");
      for (long d : t.shape().dims()) {
        shape.add(Long.toString(d));
      }
      String data;
      if (t.dtype() == DType.STRING) {
        StringJoiner s = new StringJoiner(",");
        for (long i = 0; i < t.size(); i++) {
          s.add(hex.formatHex(t.getString(i).getBytes(StandardCharsets.UTF_8)));
        }
        data = s.toString();
      } else {
        byte[] bytes = new byte[(int) t.byteSize()];
        t.copyBytes(0, bytes, 0, bytes.length);
        data = hex.formatHex(bytes);
      }
      out.append(e.getKey()).append('\t').append(t.dtype()).append('\t').append(shape).append('\t')
          .append(data).append('\n');
    }
    return out.toString();
  }

  private static PythonEnv.Result check(String mode, Parameters p, Map<String, Tensor> tensors)
      throws IOException, InterruptedException {
    Path params = dir.resolve(mode + ".bin");
    Path expected = dir.resolve(mode + ".tsv");
    Files.write(params, ParametersCodec.encode(p));
    Files.writeString(expected, expectations(tensors), StandardCharsets.UTF_8);
    return python.run(dir, TIMEOUT, script.toString(), dir.resolve("gen").toString(), mode,
        params.toString(), expected.toString()).assertOk();
  }

  @Test
  void protoNdarray_writtenByJava_pythonProtobufReadsEveryValue() throws Exception {
    LinkedHashMap<String, Tensor> tensors = everyDtype(true);

    PythonEnv.Result r = check("check-proto", new ProtoNdarraySerializer().serializeNamed(tensors), tensors);

    assertThat(r.stdout()).contains("checked " + tensors.size() + " values");
  }

  @Test
  void numpyNdarray_writtenByJava_numpyLoadsEveryTensor() throws Exception {
    LinkedHashMap<String, Tensor> tensors = everyDtype(false);

    PythonEnv.Result r = check("check-numpy", new NumpyNdarraySerializer().serializeNamed(tensors), tensors);

    assertThat(r.stdout()).contains("checked " + tensors.size() + " tensors");
  }

  @Test
  void protoNdarray_writtenByPython_javaReadsEveryEncoding() throws Exception {
    Path out = dir.resolve("from-python.bin");
    python.run(dir, TIMEOUT, script.toString(), dir.resolve("gen").toString(), "write-proto", out.toString())
        .assertOk();

    Map<String, Tensor> t = new ProtoNdarraySerializer().deserializeNamed(ParametersCodec.decode(Files.readAllBytes(out)));

    Tensor ints32 = Tensor.ofInts(Shape.of(5), Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE);
    Tensor ints64 = Tensor.ofLongs(Shape.of(2, 2), Long.MIN_VALUE, -1, 0, Long.MAX_VALUE);
    assertThat(t).containsEntry("i32", ints32).containsEntry("si32", ints32).containsEntry("sf32", ints32);
    assertThat(t).containsEntry("i64", ints64).containsEntry("si64", ints64);
    assertThat(t.get("u32").dtype()).isEqualTo(DType.UINT32);
    assertThat(t.get("u32").toDoubleArray()).containsExactly(0, 1, 4294967295.0);
    assertThat(t.get("u64").dtype()).isEqualTo(DType.UINT64);
    assertThat(new long[] {t.get("u64").getLong(0), t.get("u64").getLong(1), t.get("u64").getLong(2)})
        .containsExactly(0, -1, Long.MIN_VALUE);
    assertThat(t.get("f64").getLong(0)).isEqualTo(-2L);
    assertThat(t).containsEntry("b", Tensor.ofBooleans(Shape.of(3), true, false, true));
    assertThat(t).containsEntry("s", Tensor.ofStrings(Shape.of(3), "", "h\u00e9llo", "\uD83D\uDE00"));
    assertThat(t).containsEntry("d", Tensor.ofDoubles(Shape.of(2, 2), 0.1, -2.5, 1e300, Double.POSITIVE_INFINITY));
    assertThat(t).containsEntry("f", Tensor.ofFloats(Shape.of(2), 0.5f, -1.25f));
    assertThat(t.get("h").dtype()).isEqualTo(DType.FLOAT16);
    assertThat(t.get("h").toFloatArray()).containsExactly(1.0f, -0.5f, 65504f);
    assertThat(t.get("c").dtype()).isEqualTo(DType.COMPLEX64);
    assertThat(new double[] {t.get("c").getReal(0), t.get("c").getImag(0), t.get("c").getReal(1), t.get("c").getImag(1)})
        .containsExactly(1, 2, -3.5, 0);
    assertThat(t).containsEntry("scalar", Tensor.scalar(3.25));
    assertThat(t.get("arr_15").dtype()).isEqualTo(DType.UINT32);
    assertThat(t.get("arr_15").getInt(0)).isEqualTo(7);
    assertThat(t).containsEntry("u8", Tensor.fromLittleEndian(DType.UINT8, Shape.of(3), new byte[] {0, -1, -128}));
    assertThat(t).containsEntry("empty", Tensor.zeros(DType.FLOAT32, Shape.of(0, 3)));
    assertThat(t).hasSize(18);
  }
}
