package io.tributary.graph.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.data.Dataset;
import io.tributary.data.Synthetic;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.tensor.Finite;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A client update of one SGD step over one example leaves its weight product unapplied and
 * returns the change as a rank-one step ({@code Tensor.rankOneStep}): its bits must be those of
 * the trained model minus the start, however the delta is read.
 */
class RankOneDeltaTest {
  private static final Model MCLR = Models.mclr();
  private static final StructType TYPE = LocalTraining.modelType(MCLR);

  private static JavaFunction bound(GraphComputation g) throws GraphBindingException {
    return GraphBinder.standard().bind(g);
  }

  /** The update's delta and the trained model of the same call, for clients of one example. */
  @Test
  void clientUpdate_oneExampleOneStep_deltaIsTrainedMinusStartBitForBit() throws Exception {
    Dataset train = Synthetic.fedProx(1, 1, 5).pooledTrain();
    ClientUpdateConfig config = ClientUpdateConfig.fedAvg(1, 1, 0.5);
    JavaFunction update = bound(LocalTraining.clientUpdate("client_update", MCLR, config));
    JavaFunction training = bound(LocalTraining.clientTraining("client_training", MCLR, config));
    Map<String, Tensor> global = MCLR.initialParameters(7);
    Object model = ModelStructs.toValue(TYPE, global);
    for (int c = 0; c < 4; c++) {
      List<StructValue> data = Sequences.shuffled(train, 1, c).subList(0, 1);
      StructValue arg = StructValue.named("model", model, "data", data);
      Map<String, Tensor> delta = ModelStructs.fromValue(TYPE,
          ((StructValue) update.body().apply(arg)).get(0), "delta");
      Map<String, Tensor> trained = ModelStructs.fromValue(TYPE,
          ((StructValue) training.body().apply(arg)).get(0), "model");
      Tensor weights = delta.get(firstMatrix());
      assertThat(weights.isDeferred()).as("client %d: the weights' delta is computed on read", c)
          .isTrue();
      for (String p : delta.keySet()) {
        Tensor expected = minus(trained.get(p), global.get(p));
        assertThat(Finite.firstNonFinite(delta.get(p))).isEqualTo(-1);
        // Summed in place first (the start read, no array written), then made.
        double[] acc = new double[(int) expected.size()];
        TensorMath.addScaled(List.of(delta.get(p)), new double[] {1.0}, acc, 0);
        double[] want = new double[acc.length];
        TensorMath.addScaled(List.of(expected), new double[] {1.0}, want, 0);
        assertThat(acc).as("client %d, %s summed", c, p).isEqualTo(want);
        assertThat(bits(delta.get(p))).as("client %d, %s made", c, p)
            .isEqualTo(bits(expected));
      }
    }
  }

  @Test
  void clientUpdate_twoExamplesInABatchOfTwo_deltaIsLentNotRankOne() throws Exception {
    Dataset train = Synthetic.fedProx(1, 1, 5).pooledTrain();
    JavaFunction update = bound(LocalTraining.clientUpdate("client_update", MCLR,
        ClientUpdateConfig.fedAvg(1, 2, 0.5)));
    JavaFunction training = bound(LocalTraining.clientTraining("client_training", MCLR,
        ClientUpdateConfig.fedAvg(1, 2, 0.5)));
    Map<String, Tensor> global = MCLR.initialParameters(7);
    StructValue arg = StructValue.named("model", ModelStructs.toValue(TYPE, global),
        "data", Sequences.shuffled(train, 1, 3).subList(0, 2));
    Map<String, Tensor> delta = ModelStructs.fromValue(TYPE,
        ((StructValue) update.body().apply(arg)).get(0), "delta");
    Map<String, Tensor> trained = ModelStructs.fromValue(TYPE,
        ((StructValue) training.body().apply(arg)).get(0), "model");
    for (String p : delta.keySet()) {
      assertThat(bits(delta.get(p))).as(p)
          .isEqualTo(bits(minus(trained.get(p), global.get(p))));
    }
  }

  /** {@code a - b} as float32 subtractions, the delta's own operation. */
  private static Tensor minus(Tensor a, Tensor b) {
    float[] out = new float[(int) a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.getFloat(i) - b.getFloat(i);
    }
    return Tensor.ofFloats(a.shape(), out);
  }

  private static String firstMatrix() {
    for (Map.Entry<String, Tensor> e : MCLR.initialParameters(0).entrySet()) {
      if (e.getValue().shape().rank() == 2) {
        return e.getKey();
      }
    }
    throw new AssertionError("mclr has no weight matrix");
  }

  private static List<Integer> bits(Tensor t) {
    List<Integer> out = new ArrayList<>();
    for (long i = 0; i < t.size(); i++) {
      out.add(Float.floatToRawIntBits(t.getFloat(i)));
    }
    return out;
  }
}
