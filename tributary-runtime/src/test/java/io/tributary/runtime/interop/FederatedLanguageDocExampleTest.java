package io.tributary.runtime.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.computation.Computation;
import io.tributary.core.proto.ComputationProtos;
import io.tributary.core.proto.LocalResolver;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.testing.PythonEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the section "Computations from federated-language" of docs/federated-core.md as it
 * stands: its Python snippet with the real federated-language, then its Java snippet (kept
 * between {@code // doc:} markers here and compared with the doc) on the file the Python wrote.
 */
@Timeout(900)
class FederatedLanguageDocExampleTest {
  @TempDir Path dir;

  static Object runJavaSnippet(Path file) throws Exception {
    // doc:from-federated-language
    Computation mean = Computation.of(
        ComputationProtos.fromBytes(Files.readAllBytes(file), LocalResolver.none()));
    Object result;
    try (ExecutionContext context = ExecutionContext.create(RuntimeOptions.defaults())) {
      result = context.invoke(mean,
          List.of(Tensor.scalar(20.5f), Tensor.scalar(22.0f), Tensor.scalar(19.0f)));
    }
    // doc:end
    return result;
  }

  @Test
  void docExample_pythonThenJava_averagesTheReadings() throws Exception {
    String doc = Files.readString(PythonEnv.projectRoot().resolve("docs/federated-core.md"));
    String python = between(doc, "<!-- doc:from-federated-language-python -->\n```python\n",
        "```");
    String java = between(doc, "<!-- doc:from-federated-language -->\n```java\n", "```");
    String source = Files.readString(PythonEnv.projectRoot().resolve(
        "tributary-runtime/src/test/java/io/tributary/runtime/interop/"
            + "FederatedLanguageDocExampleTest.java"));
    assertThat(normalize(java)).isEqualTo(
        normalize(between(source, "// doc:from-federated-language\n", "// doc:end")));

    FederatedLanguageEnv fl = FederatedLanguageEnv.require();
    Path script = Files.writeString(dir.resolve("example.py"), python);
    fl.run(script, dir);
    Path file = dir.resolve("mean.pb");

    assertThat(runJavaSnippet(file)).isEqualTo(Tensor.scalar(20.5f));
    Computation read = Computation.of(
        ComputationProtos.fromBytes(Files.readAllBytes(file), LocalResolver.none()));
    assertThat(doc).contains("type: " + read.type().compact() + "\nbody:\n" + read.format());
  }

  private static String between(String text, String start, String end) {
    int a = text.indexOf(start);
    assertThat(a).as("marker %s", start.strip()).isGreaterThanOrEqualTo(0);
    return text.substring(a + start.length(), text.indexOf(end, a + start.length()));
  }

  private static String normalize(String code) {
    return code.strip().replaceAll("\\s+", " ");
  }
}
