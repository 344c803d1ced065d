package io.tributary.graph.models;

import io.tributary.graph.Graph;
import io.tributary.graph.Variable;
import io.tributary.graph.VariableKind;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A classifier graph and the names of its parts.
 *
 * @param name the model's name, such as {@code mclr}
 * @param graph the forward graph (validated)
 * @param input the placeholder fed with a batch of examples
 * @param labels the placeholder fed with int64 class indices
 * @param logits the unnormalised class scores [batch, classes]
 * @param loss the scalar mean softmax cross-entropy
 * @param accuracy the scalar fraction of correct predictions
 */
public record Model(String name, Graph graph, String input, String labels, String logits,
    String loss, String accuracy) {
  public Model {
    Objects.requireNonNull(name, "name");
    graph.validate();
    for (String v : List.of(input, labels, logits, loss, accuracy)) {
      graph.requireVariable(v);
    }
  }

  /** The trainable parameters, in declaration order. */
  public List<Variable> trainables() {
    return graph.variablesOfKind(VariableKind.TRAINABLE);
  }

  /** The names of the trainable parameters, in declaration order. */
  public List<String> trainableNames() {
    List<String> out = new ArrayList<>();
    for (Variable v : trainables()) {
      out.add(v.name());
    }
    return out;
  }

  /** The number of trainable scalars. */
  public long parameterCount() {
    long n = 0;
    for (Variable v : trainables()) {
      n = Math.addExact(n, v.shape().knownSize());
    }
    return n;
  }

  /**
   * Seeded initial parameters: Glorot-uniform weights (limit sqrt(6 / (fan_in + fan_out)), the fans of
   * a convolution filter counting its window) and zero biases (rank-1 parameters). The same seed
   * always gives the same values.
   */
  public Map<String, Tensor> initialParameters(long seed) {
    SplittableRandom root = new SplittableRandom(seed);
    Map<String, Tensor> out = new LinkedHashMap<>();
    for (Variable v : trainables()) {
      SplittableRandom rnd = root.split();
      long[] dims = v.shape().dims();
      int n = Math.toIntExact(v.shape().knownSize());
      double[] values = new double[n];
      if (dims.length >= 2) {
        long receptive = 1;
        for (int i = 0; i < dims.length - 2; i++) {
          receptive *= dims[i];
        }
        double fanIn = (double) receptive * dims[dims.length - 2];
        double fanOut = (double) receptive * dims[dims.length - 1];
        double limit = Math.sqrt(6.0 / (fanIn + fanOut));
        for (int i = 0; i < n; i++) {
          values[i] = rnd.nextDouble(-limit, limit);
        }
      }
      out.put(v.name(), v.dtype() == DType.FLOAT32 ? floats(v, values)
          : Tensor.ofDoubles(v.shape().toShape(), values));
    }
    return out;
  }

  private static Tensor floats(Variable v, double[] values) {
    float[] f = new float[values.length];
    for (int i = 0; i < f.length; i++) {
      f[i] = (float) values[i];
    }
    return Tensor.ofFloats(v.shape().toShape(), f);
  }
}
