package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NpzClientsTest {
  @TempDir Path dir;

  private static Tensor doubles(long[] shape, double... v) {
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT64, Shape.of(shape));
    for (int i = 0; i < v.length; i++) {
      b.setDouble(i, v[i]);
    }
    return b.build();
  }

  private static Tensor ints(long... v) {
    TensorBuilder b = TensorBuilder.allocate(DType.INT32, Shape.of(v.length));
    for (int i = 0; i < v.length; i++) {
      b.setInt(i, (int) v[i]);
    }
    return b.build();
  }

  private void client(String file, Tensor x, Tensor y) throws IOException {
    Map<String, Tensor> m = new LinkedHashMap<>();
    if (x != null) {
      m.put("x", x);
    }
    if (y != null) {
      m.put("y", y);
    }
    Npz.write(dir.resolve(file), m, false);
  }

  /** n examples of 2 features (i, 10 i) with labels i % 2. */
  private void client(String file, int n) throws IOException {
    double[] x = new double[2 * n];
    long[] y = new long[n];
    for (int i = 0; i < n; i++) {
      x[2 * i] = i;
      x[2 * i + 1] = 10 * i;
      y[i] = i % 2;
    }
    client(file, doubles(new long[] {n, 2}, x), ints(y));
  }

  @Test
  void open_clientFilesWithoutTestFile_holdOutAFraction() throws IOException {
    client("b.npz", 10);
    client("a.npz", 5);
    NpzClients c = NpzClients.open(dir, 0, 0.2, 1);
    assertThat(c.clients()).isEqualTo(2);
    assertThat(c.file(0).getFileName().toString()).isEqualTo("a.npz");
    assertThat(c.numClasses()).isEqualTo(2);
    assertThat(c.client(0).size()).isEqualTo(4);
    assertThat(c.client(1).size()).isEqualTo(8);
    assertThat(c.test().size()).isEqualTo(3);
    assertThat(c.exampleShape()).containsExactly(2);
  }

  @Test
  void open_testFile_isTheTestSetAndNoClient() throws IOException {
    client("a.npz", 5);
    client("test.npz", 3);
    NpzClients c = NpzClients.open(dir, 4, 0.2, 1);
    assertThat(c.clients()).isEqualTo(1);
    assertThat(c.client(0).size()).isEqualTo(5);
    assertThat(c.test().size()).isEqualTo(3);
    assertThat(c.numClasses()).isEqualTo(4);
  }

  @Test
  void open_noY_namesFileAndArrays() throws IOException {
    client("a.npz", doubles(new long[] {1, 2}, 1, 2), null);
    assertThatThrownBy(() -> NpzClients.open(dir, 0, 0.2, 1))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("a.npz: has no array 'y'");
  }

  @Test
  void open_mismatchedLengths_namesFile() throws IOException {
    client("a.npz", doubles(new long[] {2, 2}, 1, 2, 3, 4), ints(0));
    assertThatThrownBy(() -> NpzClients.open(dir, 0, 0.2, 1))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("a.npz: x has 2 examples but y has 1 labels");
  }

  @Test
  void open_nonFiniteFeature_namesFileAndExample() throws IOException {
    client("a.npz", doubles(new long[] {2, 2}, 1, 2, Double.NaN, 4), ints(0, 1));
    assertThatThrownBy(() -> NpzClients.open(dir, 0, 0.2, 1))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("a.npz: x[1] holds NaN");
  }

  @Test
  void open_otherExampleShape_namesFile() throws IOException {
    client("a.npz", 5);
    client("b.npz", doubles(new long[] {1, 3}, 1, 2, 3), ints(0));
    assertThatThrownBy(() -> NpzClients.open(dir, 0, 0.2, 1))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("b.npz: x's examples have shape [3], the other files' [2]");
  }

  @Test
  void open_labelNotBelowClasses_fails() throws IOException {
    client("a.npz", 5);
    assertThatThrownBy(() -> NpzClients.open(dir, 1, 0.2, 1))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("label 1 is not below the class count 1");
  }

  @Test
  void open_noClientFiles_fails() {
    assertThatThrownBy(() -> NpzClients.open(dir, 0, 0.2, 1))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("holds no client file");
  }
}
