package io.tributary.learning;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Value;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.values.StructValue;
import io.tributary.learning.ModelLeaves;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Byzantine clients for robustness experiments: a client update wrapped so that each client's
 * data carries an attack, {@code scale * delta + sigma * N(0, 1)}, applied to the honest update
 * before it leaves the client.
 *
 * <p>{@link #wrap} turns a client update of type {@code (<model=M,data=D> -> <delta=M,
 * num_examples=int64,loss=float32>)} into one of type {@code (<model=M,data=<data=D,attack=A>> ->
 * <delta=M,num_examples=int64,loss=float32>)} with A = {@link #ATTACK} {@code <scale=float64,
 * sigma=float64,seed=int64>}. An honest client carries {@link #honest()} (scale 1, sigma 0) and
 * sends its update unchanged; the example count and the loss are never changed. Sign flipping
 * is scale -1; Gaussian noise in place of the update is scale 0 with sigma the noise's standard
 * deviation, drawn from the attack's seed.
 */
public final class ByzantineUpdate {
  private static final TensorType FLOAT64 = TensorType.of(DType.FLOAT64);
  private static final TensorType INT64 = TensorType.of(DType.INT64);

  /** A, what each client's data carries: {@code <scale=float64,sigma=float64,seed=int64>}. */
  public static final StructType ATTACK = StructType.named("scale", FLOAT64, "sigma", FLOAT64,
      "seed", INT64);

  private ByzantineUpdate() {}

  /**
   * The client update with the attack its data carry applied to its delta, of the type given
   * above.
   *
   * @throws IllegalArgumentException if {@code clientUpdate} does not have a client update's type
   */
  public static Computation wrap(Computation clientUpdate) {
    ClientWork w = ClientWork.update(clientUpdate);
    StructType result = (StructType) clientUpdate.type().result();
    StructType data = StructType.named("data", w.data(), "attack", ATTACK);
    StructType parameter = StructType.named("model", w.model(), "data", data);
    Computation attack = Federated.local("byzantine_attack",
        FunctionType.of(StructType.named("update", result, "attack", ATTACK), result), x -> {
          StructValue a = (StructValue) x;
          StructValue update = a.struct(0);
          StructValue how = a.struct(1);
          double scale = how.tensor(0).getAsDouble(0);
          double sigma = how.tensor(1).getAsDouble(0);
          if (scale == 1 && sigma == 0) {
            return update;
          }
          List<Tensor> delta = attacked(ModelLeaves.of(update.get(0)), scale, sigma,
              how.tensor(2).longItem());
          List<Object> values = new ArrayList<>(update.values());
          values.set(0, ModelLeaves.rebuild(w.model(), delta));
          return StructValue.of(update.names(), values);
        });
    // By position: a round's federated map hands the client <model, data> unnamed.
    return Federated.computation(parameter, x -> {
      Value d = x.get(1);
      Value out = clientUpdate.call(FederatedLearning.named("model", x.get(0), "data",
          d.get(0)));
      return attack.call(FederatedLearning.named("update", out, "attack", d.get(1)));
    });
  }

  /** The data of one client for {@link #wrap}'s update: its own data and its attack. */
  public static StructValue clientData(Object data, StructValue attack) {
    return StructValue.named("data", data, "attack", attack);
  }

  /** The attack of an honest client: scale 1, no noise, the update unchanged. */
  public static StructValue honest() {
    return attack(1, 0, 0);
  }

  /**
   * An attack value: the delta becomes {@code scale * delta + sigma * N(0, 1)}, the noise drawn
   * from {@code seed}.
   *
   * @throws IllegalArgumentException when scale or sigma is not finite, or sigma is negative
   */
  public static StructValue attack(double scale, double sigma, long seed) {
    check(scale, sigma);
    return StructValue.named("scale", Tensor.scalar(scale), "sigma", Tensor.scalar(sigma),
        "seed", Tensor.ofLongs(Shape.scalar(), seed));
  }

  /**
   * What an attacked client sends: every element {@code scale * delta + sigma * z}, computed in
   * double and written back in the layer's dtype, with {@code z} standard normal from a
   * {@link SplittableRandom} seeded with {@code seed} (Box-Muller with {@link StrictMath}, so the
   * same on every JVM), drawn layer by layer in order; no noise is drawn when sigma is 0.
   *
   * @throws IllegalArgumentException when scale or sigma is not finite, or sigma is negative
   */
  public static List<Tensor> attacked(List<Tensor> delta, double scale, double sigma,
      long seed) {
    check(scale, sigma);
    SplittableRandom random = new SplittableRandom(seed);
    List<Tensor> out = new ArrayList<>(delta.size());
    for (Tensor layer : delta) {
      TensorBuilder b = TensorBuilder.allocate(layer.dtype(), layer.shape());
      for (long i = 0; i < layer.size(); i++) {
        double v = scale * layer.getAsDouble(i);
        if (sigma != 0) {
          v += sigma * gaussian(random);
        }
        b.setFromDouble(i, v);
      }
      out.add(b.build());
    }
    return out;
  }

  private static double gaussian(SplittableRandom random) {
    double u = 1 - random.nextDouble();
    double v = random.nextDouble();
    return StrictMath.sqrt(-2 * StrictMath.log(u)) * StrictMath.cos(2 * StrictMath.PI * v);
  }

  private static void check(double scale, double sigma) {
    if (!Double.isFinite(scale)) {
      throw new IllegalArgumentException("the attack's scale must be finite, got " + scale);
    }
    if (!(sigma >= 0) || !Double.isFinite(sigma)) {
      throw new IllegalArgumentException("the attack's sigma must be finite and >= 0, got "
          + sigma);
    }
  }
}
