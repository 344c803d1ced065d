package io.tributary.graph.models;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.ops.GraphExecutor;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ModelsTest {
  static Stream<Arguments> models() {
    return Stream.of(
        Arguments.of("mclr", (Supplier<Model>) Models::mclr, 610L, new long[] {60}),
        Arguments.of("2nn", (Supplier<Model>) Models::fedAvg2nn, 199_210L, new long[] {784}),
        Arguments.of("cnn", (Supplier<Model>) Models::fedAvgCnn, 1_663_370L, new long[] {28, 28, 1}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("models")
  void parameterCount_builtInModel_matchesPaper(String name, Supplier<Model> m, long count,
      long[] inputDims) {
    assertThat(m.get().parameterCount()).isEqualTo(count);
    long sum = 0;
    for (Tensor t : m.get().initialParameters(1).values()) {
      sum += t.size();
    }
    assertThat(sum).isEqualTo(count);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("models")
  void initialParameters_sameSeed_sameValuesOtherSeedDiffers(String name, Supplier<Model> m,
      long count, long[] inputDims) {
    Model model = m.get();
    Map<String, Tensor> a = model.initialParameters(42);
    Map<String, Tensor> b = model.initialParameters(42);
    Map<String, Tensor> c = model.initialParameters(43);
    assertThat(a).isEqualTo(b);
    String firstKernel = model.trainableNames().get(0);
    assertThat(a.get(firstKernel)).isNotEqualTo(c.get(firstKernel));
    Tensor w = a.get(firstKernel);
    double maxAbs = 0;
    for (long i = 0; i < w.size(); i++) {
      maxAbs = Math.max(maxAbs, Math.abs(w.getFloat(i)));
    }
    assertThat(maxAbs).isGreaterThan(0).isLessThan(0.5);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("models")
  void forward_batchOfTwo_givesLogitsAndFiniteLoss(String name, Supplier<Model> m, long count,
      long[] inputDims) {
    Model model = m.get();
    long[] xDims = new long[inputDims.length + 1];
    xDims[0] = 2;
    System.arraycopy(inputDims, 0, xDims, 1, inputDims.length);
    int n = (int) Shape.of(xDims).size();
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = (i % 7) / 7f;
    }
    Map<String, Tensor> feeds = new HashMap<>(model.initialParameters(3));
    feeds.put(model.input(), Tensor.ofFloats(Shape.of(xDims), x));
    feeds.put(model.labels(), Tensor.ofLongs(Shape.of(2), 1, 7));
    Map<String, Tensor> out = new GraphExecutor(model.graph()).runTensors(feeds,
        List.of(model.logits(), model.loss(), model.accuracy()));
    assertThat(out.get(model.logits()).shape()).isEqualTo(Shape.of(2, 10));
    assertThat(out.get(model.logits()).dtype()).isEqualTo(DType.FLOAT32);
    double loss = out.get(model.loss()).getAsDouble(0);
    assertThat(loss).isBetween(0.5, 10.0);
  }
}
