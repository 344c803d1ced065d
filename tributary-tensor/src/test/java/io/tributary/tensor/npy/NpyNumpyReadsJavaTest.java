package io.tributary.tensor.npy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.testing.PythonEnv;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Java writes every dtype, shape and layout; numpy loads each and checks dtype, shape, values. */
class NpyNumpyReadsJavaTest {
  @TempDir Path dir;
  private final List<Object> manifest = new ArrayList<>();
  private int counter;

  @Test
  void npLoad_javaWrittenNpyAndNpz_matchesWhatJavaWrote() throws Exception {
    PythonEnv python = PythonEnv.require("numpy");
    int seed = 0;
    for (DType d : TestTensors.numpyDtypes()) {
      for (Shape s : TestTensors.SHAPES) {
        npy(TestTensors.patterned(d, s, seed++), null);
      }
      npy(TestTensors.patterned(d, Shape.of(6, 4), seed++, 4), null);
      npy(TestTensors.patterned(d, Shape.of(6, 5), seed++).slice(1, 1, 4).slice(0, 2, 5), null);
      for (NpyVersion v : NpyVersion.values()) {
        npy(TestTensors.patterned(d, Shape.of(2, 3), seed++), v);
      }
    }
    npy(Tensor.ofStrings(Shape.of(3), "", "", ""), null);
    LinkedHashMap<String, Tensor> arrays = new LinkedHashMap<>();
    arrays.put("weights", TestTensors.patterned(DType.FLOAT32, Shape.of(16, 9), 1));
    arrays.put("bias", TestTensors.patterned(DType.FLOAT64, Shape.of(9), 2));
    arrays.put("scalar", TestTensors.patterned(DType.INT64, Shape.scalar(), 3));
    arrays.put("empty", TestTensors.patterned(DType.UINT16, Shape.of(3, 0), 4));
    arrays.put("labels", TestTensors.patterned(DType.STRING, Shape.of(2, 2), 5));
    arrays.put("chunked", TestTensors.patterned(DType.COMPLEX128, Shape.of(5, 3), 6, 4));
    npz("stored", arrays, false, false);
    npz("compressed", arrays, true, false);
    npz("stored_path", arrays, false, true);
    npz("compressed_path", arrays, true, true);
    npz("unnamed", Npz.named(List.of(Tensor.ofInts(Shape.of(2), 7, 8), Tensor.scalar(1.5f))), true, false);
    Files.writeString(dir.resolve("manifest.json"), Json.write(manifest), StandardCharsets.UTF_8);

    PythonEnv.Result r = python.run(dir, Duration.ofMinutes(2),
        NpyCorpusTest.script("check_java_output.py").toString(), dir.toString());
    assertThat(r.exitCode()).as("checker output:\n%s\n%s", r.stdout(), r.stderr()).isZero();
    assertThat(r.stdout()).contains("checked " + (counter) + " arrays");
  }

  private void npy(Tensor t, NpyVersion version) throws IOException {
    String name = "t" + manifest.size();
    byte[] bytes;
    if (version == null) {
      bytes = Npy.toBytes(t);
      ByteArrayOutputStream streamed = new ByteArrayOutputStream();
      Npy.write(t, streamed);
      assertThat(streamed.toByteArray()).as("write equals toBytes for %s", t).isEqualTo(bytes);
    } else {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Npy.write(t, out, version);
      bytes = out.toByteArray();
    }
    Files.write(dir.resolve(name + ".npy"), bytes);
    Map<String, Object> entry = spec(name, t);
    entry.put("kind", "npy");
    entry.put("file", name + ".npy");
    entry.put("version", version == null ? "1.0" : version.toString());
    entry.put("default_version", version == null);
    manifest.add(entry);
    counter++;
  }

  private void npz(String name, Map<String, Tensor> arrays, boolean compressed, boolean viaPath) throws IOException {
    Path file = dir.resolve(name + ".npz");
    if (viaPath) {
      Npz.write(file, arrays, compressed);
    } else {
      Files.write(file, Npz.toBytes(arrays, compressed));
    }
    List<Object> specs = new ArrayList<>();
    for (Map.Entry<String, Tensor> e : arrays.entrySet()) {
      Map<String, Object> spec = spec(name + "." + e.getKey(), e.getValue());
      spec.put("name", e.getKey());
      specs.add(spec);
      counter++;
    }
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("kind", "npz");
    entry.put("file", name + ".npz");
    entry.put("arrays", specs);
    manifest.add(entry);
  }

  private Map<String, Object> spec(String name, Tensor t) throws IOException {
    Map<String, Object> spec = new LinkedHashMap<>();
    List<Object> dims = new ArrayList<>();
    for (long d : t.shape().dims()) {
      dims.add(d);
    }
    spec.put("shape", dims);
    spec.put("dtype", t.dtype().typeName());
    if (t.dtype() == DType.STRING) {
      List<Object> values = new ArrayList<>();
      for (long i = 0; i < t.size(); i++) {
        values.add(t.getString(i));
      }
      spec.put("strings", values);
    } else {
      byte[] raw = new byte[(int) t.byteSize()];
      t.copyBytes(0, raw, 0, raw.length);
      Files.write(dir.resolve(name + ".raw"), raw);
      spec.put("raw", name + ".raw");
    }
    return spec;
  }
}
