package io.tributary.learning.aggregation;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.values.StructValue;
import io.tributary.learning.ModelLeaves;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;

/**
 * q-FedAvg (q-FFL, Li et al. 2020), as Flower's QFedAvg strategy computes it: with each client's
 * loss F (plus 1e-10), its update d and L = 1 / {@code qffl_learning_rate}, the client's scaled
 * gradient is {@code F^q L d} and its Lipschitz estimate {@code h = q F^(q-1) ||L d||^2 + L F^q};
 * the aggregated update is {@code sum(F^q L d) / sum(h)}, added to the model.
 *
 * <p>Unlike the other rules it needs each client's loss, so its computation takes the losses as
 * a third argument (it declares {@link ClientSignal#LOSS}): q-FedAvg does fit the three parts,
 * with an aggregator of a wider type. Both sums stream (one model-sized accumulator). Flower
 * evaluates the global model once on the server and gives that one loss to every client; here each
 * client's own training loss is used, as in the paper; with equal losses the two agree.
 *
 * @param q the fairness parameter (Flower's {@code q_param}, default 0.2), >= 0
 * @param learningRate the clients' step size the update is divided by (Flower's {@code
 *     qffl_learning_rate}, default 0.1), > 0
 */
public record QFedAvg(double q, double learningRate) implements Aggregator {
  /** @throws IllegalArgumentException when q is negative or the learning rate not positive */
  public QFedAvg {
    if (!(q >= 0) || Double.isInfinite(q)) {
      throw new IllegalArgumentException("q_param must be >= 0 and finite, got " + q);
    }
    if (!(learningRate > 0) || Double.isInfinite(learningRate)) {
      throw new IllegalArgumentException("qffl_learning_rate must be positive and finite, got "
          + learningRate);
    }
  }

  @Override
  public String name() {
    return "qfedavg";
  }

  @Override
  public AggregationProcess create(StructType model) {
    TensorType f32 = TensorType.of(DType.FLOAT32);
    StructType scaled = StructType.named("gradient", model, "h", f32);
    Computation perClient = Federated.local("qffl_client",
        FunctionType.of(StructType.of(model, f32), scaled), x -> {
          StructValue a = (StructValue) x;
          double f = ((Tensor) a.get(1)).item() + 1e-10;
          double lipschitz = 1 / learningRate;
          double fq = Math.pow(f, q);
          List<Tensor> d = ModelLeaves.of(a.get(0));
          List<Tensor> g = new ArrayList<>(d.size());
          double norm = 0;
          for (Tensor t : d) {
            double[] v = TensorMath.toDoubles(t);
            for (int i = 0; i < v.length; i++) {
              double grad = v[i] * lipschitz;
              norm += grad * grad;
              v[i] = fq * grad;
            }
            g.add(TensorMath.fromDoubles(t.dtype(), t.shape(), v));
          }
          double h = q * Math.pow(f, q - 1) * norm + lipschitz * fq;
          return StructValue.named("gradient", ModelLeaves.rebuild(model, g), "h",
              Tensor.scalar((float) h));
        });
    Computation divide = Federated.local("qffl_update",
        FunctionType.of(StructType.of(model, f32), model), x -> {
          StructValue a = (StructValue) x;
          double h = ((Tensor) a.get(1)).item();
          List<Tensor> out = new ArrayList<>();
          for (Tensor t : ModelLeaves.of(a.get(0))) {
            double[] v = TensorMath.toDoubles(t);
            for (int i = 0; i < v.length; i++) {
              v[i] = v[i] / h;
            }
            out.add(TensorMath.fromDoubles(t.dtype(), t.shape(), v));
          }
          return ModelLeaves.rebuild(model, out);
        });
    // Positional parameters: the round computation calls this with an unnamed <updates,
    // examples,losses> struct.
    return AggregationProcess.stateless(Federated.computation(StructType.of(
        new FederatedType(model, Placement.CLIENTS, false),
        new FederatedType(TensorType.of(DType.INT64), Placement.CLIENTS, false),
        new FederatedType(f32, Placement.CLIENTS, false)), args -> {
          Value s = Intrinsics.federatedMap(perClient,
              Federated.struct(args.get(0), args.get(2)));
          return Intrinsics.federatedApply(divide, Intrinsics.federatedZip(Federated.struct(
              Intrinsics.federatedSum(s.get("gradient")), Intrinsics.federatedSum(s.get("h")))));
        }), ClientSignal.LOSS);
  }
}
