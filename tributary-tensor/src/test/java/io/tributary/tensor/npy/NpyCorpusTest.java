package io.tributary.tensor.npy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.testing.PythonEnv;
import java.net.URISyntaxException;
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

/** Reads a corpus that numpy itself wrote and compares every array with numpy's own values. */
class NpyCorpusTest {
  @TempDir Path dir;

  @Test
  void read_numpyCorpus_everyArrayMatchesNumpysValues() throws Exception {
    List<Map<String, Object>> manifest = makeCorpus();
    int npyFiles = 0;
    int npzArrays = 0;
    for (Map<String, Object> entry : manifest) {
      Path file = dir.resolve((String) entry.get("file"));
      if (entry.get("kind").equals("npy")) {
        Tensor fromFile = Npy.read(file);
        Tensor fromBytes = Npy.fromBytes(Files.readAllBytes(file));
        assertMatches(fromFile, entry, file.getFileName().toString());
        assertThat(fromBytes).as("%s via fromBytes", file.getFileName()).isEqualTo(fromFile);
        NpyHeader header = Npy.readHeader(Files.readAllBytes(file));
        assertThat(header.version().toString()).as("%s version", file.getFileName()).isEqualTo(entry.get("version"));
        assertThat(header.fortranOrder()).as("%s fortran", file.getFileName()).isEqualTo(entry.get("fortran"));
        npyFiles++;
      } else {
        byte[] zip = Files.readAllBytes(file);
        LinkedHashMap<String, Tensor> fromPath = Npz.read(file);
        LinkedHashMap<String, Tensor> fromBytes = Npz.read(zip);
        List<String> names = new ArrayList<>();
        for (Object o : (List<?>) entry.get("arrays")) {
          @SuppressWarnings("unchecked")
          Map<String, Object> array = (Map<String, Object>) o;
          String name = (String) array.get("name");
          names.add(name);
          assertMatches(fromPath.get(name), array, file.getFileName() + ":" + name);
          npzArrays++;
        }
        assertThat(fromPath.keySet()).as("%s entry order", file.getFileName()).containsExactlyElementsOf(names);
        assertThat(fromBytes).as("%s via byte[]", file.getFileName()).isEqualTo(fromPath);
      }
    }
    assertThat(npyFiles).isGreaterThan(180);
    assertThat(npzArrays).isGreaterThan(10);
  }

  @Test
  void toBytes_nativeLittleEndianCorpus_equalsNpSaveBytes() throws Exception {
    int compared = 0;
    for (Map<String, Object> entry : makeCorpus()) {
      if (Boolean.TRUE.equals(entry.get("exact"))) {
        Path file = dir.resolve((String) entry.get("file"));
        byte[] numpy = Files.readAllBytes(file);
        Tensor t = expected(entry);
        assertThat(Npy.toBytes(t)).as("Npy.toBytes vs np.save for %s", file.getFileName()).isEqualTo(numpy);
        compared++;
      }
    }
    assertThat(compared).as("exact comparisons").isGreaterThan(80);
  }

  private List<Map<String, Object>> makeCorpus() throws Exception {
    PythonEnv python = PythonEnv.require("numpy");
    python.run(dir, Duration.ofMinutes(2), script("make_corpus.py").toString(), dir.toString()).assertOk();
    String json = Files.readString(dir.resolve("manifest.json"), StandardCharsets.UTF_8);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> manifest = (List<Map<String, Object>>) Json.parse(json);
    return manifest;
  }

  static Path script(String name) throws URISyntaxException {
    return Path.of(NpyCorpusTest.class.getResource("/npy/" + name).toURI());
  }

  private void assertMatches(Tensor actual, Map<String, Object> expected, String what) throws Exception {
    assertThat(actual).as("%s present", what).isNotNull();
    Tensor want = expected(expected);
    assertThat(actual.dtype()).as("%s dtype", what).isEqualTo(want.dtype());
    assertThat(actual.shape()).as("%s shape", what).isEqualTo(want.shape());
    assertThat(actual).as("%s values", what).isEqualTo(want);
  }

  /** The tensor the manifest says an array holds. */
  private Tensor expected(Map<String, Object> entry) throws Exception {
    List<?> dims = (List<?>) entry.get("shape");
    long[] d = new long[dims.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = ((Number) dims.get(i)).longValue();
    }
    Shape shape = Shape.of(d);
    DType dtype = DType.fromName((String) entry.get("dtype"));
    if (dtype == DType.STRING) {
      List<?> values = (List<?>) entry.get("strings");
      return Tensor.ofStrings(shape, values.toArray(String[]::new));
    }
    return Tensor.fromLittleEndian(dtype, shape, Files.readAllBytes(dir.resolve((String) entry.get("raw"))));
  }
}
