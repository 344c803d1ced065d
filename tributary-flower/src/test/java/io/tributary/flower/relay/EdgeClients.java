package io.tributary.flower.relay;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.values.StructValue;
import io.tributary.flower.AbstractFlowerClient;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.Scalar;
import io.tributary.flower.server.internal.ModelSpec;
import io.tributary.flower.server.internal.RemoteClientWork;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Deterministic clients for relay tests: client {@code k} trains by a fixed float32 rule seeded
 * by {@code k}, so that the same training can run behind a relay (as a {@link FlowerClient}) and
 * in a simulated round (as the Java function {@link #simulatedFit}).
 */
final class EdgeClients {
  private EdgeClients() {}

  /** The initial model: a 3x2 kernel and a bias of 2, not round numbers. */
  static List<Tensor> initial() {
    return List.of(Tensor.ofFloats(Shape.of(3, 2), 0.1f, -0.7f, 1.3f, 0.01f, -2.5f, 0.3f),
        Tensor.ofFloats(Shape.of(2), 0.25f, -1.1f));
  }

  /**
   * Client {@code k}'s examples: differing, and large enough that the weighted updates are not
   * exact in float64, so that the order of the sums shows in the bits.
   */
  static long examples(int k) {
    // Clients 3j and 3j + 1 weigh the same, so that their opposite huge values cancel exactly.
    int j = k % 3 == 2 ? k : k / 3;
    return 1_000_003L + 7919L * j * j;
  }

  /** Client {@code k}'s reported training loss. */
  static float loss(int k) {
    return 0.5f + 0.125f * k;
  }

  /**
   * Client {@code k}'s trained parameters from {@code sent}: {@code 0.9 p + noise_k}. The first
   * element of each tensor is where the order of the sums shows most: clients 3j and 3j + 1 move
   * it by +1e20 and -1e20 and client 3j + 2 by a small amount, which survives only when the
   * edge's sum cancels the huge pair before adding it.
   */
  static List<Tensor> train(List<Tensor> sent, int k) {
    Random r = new Random(1000 + k);
    List<Tensor> out = new ArrayList<>();
    for (Tensor t : sent) {
      float[] v = new float[(int) t.size()];
      v[0] = switch (k % 3) {
        case 0 -> 1e20f;
        case 1 -> -1e20f;
        default -> t.getFloat(0) * 0.9f + (float) r.nextGaussian();
      };
      for (int i = 1; i < v.length; i++) {
        // Magnitudes from 1e-12 to 1e12: the sums of the weighted updates round, in an order.
        float scale = (float) Math.pow(10, r.nextInt(25) - 12);
        v[i] = t.getFloat(i) * 0.9f + (float) r.nextGaussian() * scale;
      }
      out.add(Tensor.ofFloats(t.shape(), v));
    }
    return out;
  }

  /** Client {@code k} as a Flower client. */
  static final class Trainer extends AbstractFlowerClient {
    private final int k;

    Trainer(int k) {
      this.k = k;
    }

    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) {
      return initial();
    }

    @Override
    public FitRes fit(FitIns ins) {
      return new FitRes(train(ins.parameters(), k), examples(k),
          Map.of("loss", Scalar.of((double) loss(k))));
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(loss(k), examples(k), Map.of());
    }
  }

  /**
   * The server's {@code flower_fit} as a simulated client runs it: D is the client's index as a
   * string, and the update is trained minus sent in float32, as the server computes it.
   */
  static Computation simulatedFit(ModelSpec spec) {
    StructType m = spec.type();
    StructType result = StructType.named("delta", m, "num_examples", TensorType.of(DType.INT64),
        "loss", TensorType.of(DType.FLOAT32), "loss_weight", TensorType.of(DType.FLOAT32));
    return Federated.local("flower_fit", FunctionType.of(StructType.named("model", m, "data",
        RemoteClientWork.CLIENT_ID), result), arg -> {
          StructValue a = (StructValue) arg;
          List<Tensor> sent = ModelSpec.tensors((StructValue) a.get(0));
          int k = Integer.parseInt(((Tensor) a.get(1)).getString(0));
          List<Tensor> delta = RemoteClientWork.delta(train(sent, k), sent);
          return StructValue.named("delta", spec.value(delta), "num_examples",
              Tensor.ofLongs(Shape.scalar(), examples(k)), "loss", Tensor.scalar(loss(k)),
              "loss_weight", Tensor.scalar((float) examples(k)));
        });
  }

  /**
   * The same client as hierarchical FedAvg's client update, {@code (<model=M,data=string> ->
   * <delta=M,num_examples=int64,loss=float32>)}: the update and examples of {@link #simulatedFit}.
   */
  static Computation simulatedUpdate(ModelSpec spec) {
    StructType m = spec.type();
    StructType result = StructType.named("delta", m, "num_examples", TensorType.of(DType.INT64),
        "loss", TensorType.of(DType.FLOAT32));
    return Federated.local("client_update", FunctionType.of(StructType.named("model", m, "data",
        RemoteClientWork.CLIENT_ID), result), arg -> {
          StructValue a = (StructValue) arg;
          List<Tensor> sent = ModelSpec.tensors((StructValue) a.get(0));
          int k = Integer.parseInt(((Tensor) a.get(1)).getString(0));
          List<Tensor> delta = RemoteClientWork.delta(train(sent, k), sent);
          return StructValue.named("delta", spec.value(delta), "num_examples",
              Tensor.ofLongs(Shape.scalar(), examples(k)), "loss", Tensor.scalar(loss(k)));
        });
  }

  /** {@code flower_evaluate} as a simulated client runs it. */
  static Computation simulatedEvaluate(ModelSpec spec) {
    return Federated.local("flower_evaluate", FunctionType.of(StructType.named("model",
        spec.type(), "data", RemoteClientWork.CLIENT_ID), StructType.named("loss",
        TensorType.of(DType.FLOAT32), "num_examples", TensorType.of(DType.INT64))), arg -> {
          int k = Integer.parseInt(((Tensor) ((StructValue) arg).get(1)).getString(0));
          return StructValue.named("loss", Tensor.scalar(loss(k)), "num_examples",
              Tensor.ofLongs(Shape.scalar(), examples(k)));
        });
  }
}
