package io.tributary.privacy.aggregation;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.learning.ModelLeaves;
import io.tributary.learning.aggregation.AggregationProcess;
import io.tributary.learning.aggregation.ClientSignal;
import io.tributary.learning.aggregation.Aggregator;
import io.tributary.privacy.AdaptiveClipping;
import io.tributary.privacy.Clipping;
import io.tributary.privacy.DpFormulas;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * DP-FedAvg's aggregation (McMahan, Ramage, Talwar and Zhang 2018, "Learning Differentially
 * Private Recurrent Language Models"), with Flower's hyperparameter names: each client's update
 * is clipped to L2 norm C on the clients (a {@code federated_map} of a local clip), the clipped
 * updates are summed, and the server divides the sum by {@code num_sampled_clients} and adds
 * Gaussian noise of standard deviation {@code noise_multiplier x C / num_sampled_clients}
 * (Flower's {@code compute_stdv}), drawn from {@link #noise()}.
 *
 * <p>The updates are weighted equally, not by example counts: one client's contribution to the
 * sum is then at most C whatever it claims, which is the sensitivity the noise is scaled to.
 * Dividing by the expected count, not the clients that answered, keeps that bound when clients
 * drop out.
 *
 * <p>With {@link #adaptive()} the clipping norm is the aggregator's state and follows {@link
 * AdaptiveClipping} (Andrew et al. 2021): each client also reports whether its update was within
 * C, the server sums those bits, noises the sum with {@code clipped_count_stddev} and moves C
 * toward the target quantile; the model's noise multiplier is then {@link
 * AdaptiveClipping#updateNoiseMultiplier}, so that count and update together spend what {@code
 * noise_multiplier} alone would (Flower's {@code compute_adaptive_noise_params}).
 *
 * <p>The state A is {@code <round=int64,clip_norm=float64,metrics=<clip_norm=float64,
 * noise_stddev=float64>>}: the rounds aggregated, the clipping norm of the next round, and what
 * the last round used (its norm, and the noise's standard deviation on the mean), which {@link
 * io.tributary.learning.FederatedLearning#next} adds to the round's metrics.
 *
 * @param mode who clips: {@link DpMode#CENTRAL} or {@link DpMode#CLIENT} (then the clients may
 *     also add {@link #localStddev} of local noise); in a simulation both clip in the clients'
 *     map, before anything is summed
 * @param noiseMultiplier z, >= 0 (0 clips without noise and gives no privacy)
 * @param clippingNorm C, or the initial C with adaptive clipping ({@code
 *     initial_clipping_norm}), positive and finite
 * @param numSampledClients the expected number of clients per round, m >= 1
 * @param adaptive adaptive clipping's hyperparameters, or empty for a fixed C
 * @param localStddev the standard deviation of the Gaussian noise each client adds to its clipped
 *     update ({@link DpMode#CLIENT} only; 0 for none)
 * @param noise where the server's and the clients' noise comes from
 * @param secureBits with a value b, the clipped updates are summed with {@code
 *     federated_secure_sum_bitwidth} (SecAgg+ when the runtime has it) after each client
 *     quantizes its update to b-bit integers ({@link #withSecureSum}); empty for a plain sum
 * @param reportedNormBits whether adaptive clipping counts the clients' own reports of whether
 *     their update was within C ({@code norm_bit}, {@link #withReportedNormBits}) instead of
 *     measuring the updates it receives: a server sees only updates the clients clipped already
 */
public record DpAggregator(DpMode mode, double noiseMultiplier, double clippingNorm,
    int numSampledClients, Optional<AdaptiveClipping> adaptive, double localStddev,
    DpNoise noise, OptionalInt secureBits, boolean reportedNormBits) implements Aggregator {
  private static final TensorType INT64 = TensorType.of(DType.INT64);
  private static final TensorType FLOAT64 = TensorType.of(DType.FLOAT64);
  /** The metric of the clipping norm a round used (its state's norm too). */
  public static final String CLIP_NORM = "clip_norm";
  /** The metric of the standard deviation of the noise a round added to the mean. */
  public static final String NOISE_STDDEV = "noise_stddev";
  private static final StructType METRICS = StructType.named(CLIP_NORM, FLOAT64,
      NOISE_STDDEV, FLOAT64);
  /** A, the aggregator's state. */
  public static final StructType STATE = StructType.named("round", INT64, "clip_norm", FLOAT64,
      "metrics", METRICS);

  /**
   * Checks the parameters.
   *
   * @throws IllegalArgumentException naming the first out of range by Flower's name
   */
  public DpAggregator {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(adaptive, "adaptive");
    Objects.requireNonNull(noise, "noise");
    // Checks noise_multiplier, clipping_norm and num_sampled_clients.
    DpFormulas.centralStddev(noiseMultiplier, clippingNorm, numSampledClients);
    adaptive.ifPresent(a -> a.updateNoiseMultiplier(noiseMultiplier));
    if (!(localStddev >= 0) || Double.isInfinite(localStddev)) {
      throw new IllegalArgumentException("local noise stddev must be finite and >= 0, got "
          + localStddev);
    }
    if (localStddev > 0 && mode != DpMode.CLIENT) {
      throw new IllegalArgumentException("local noise applies only to client-side DP");
    }
    Objects.requireNonNull(secureBits, "secureBits");
    if (secureBits.isPresent()) {
      if (mode != DpMode.CLIENT) {
        throw new IllegalArgumentException("secure aggregation needs client-side DP: with "
            + "central DP the server clips, so it must see every update");
      }
      new QuantizedSum(secureBits.getAsInt(), localStddev);
    }
    if (reportedNormBits && (mode != DpMode.CLIENT || adaptive.isEmpty())) {
      throw new IllegalArgumentException("the clients' norm bits serve client-side adaptive "
          + "clipping only");
    }
    if (reportedNormBits && secureBits.isPresent()) {
      throw new IllegalArgumentException("client-reported norm bits cannot be summed securely "
          + "yet: use fixed clipping with secure aggregation");
    }
  }

  /** The aggregator with a plain or secure sum, measuring the norms itself. */
  public DpAggregator(DpMode mode, double noiseMultiplier, double clippingNorm,
      int numSampledClients, Optional<AdaptiveClipping> adaptive, double localStddev,
      DpNoise noise, OptionalInt secureBits) {
    this(mode, noiseMultiplier, clippingNorm, numSampledClients, adaptive, localStddev, noise,
        secureBits, false);
  }

  /** The aggregator with a plain sum. */
  public DpAggregator(DpMode mode, double noiseMultiplier, double clippingNorm,
      int numSampledClients, Optional<AdaptiveClipping> adaptive, double localStddev,
      DpNoise noise) {
    this(mode, noiseMultiplier, clippingNorm, numSampledClients, adaptive, localStddev, noise,
        OptionalInt.empty(), false);
  }

  /**
   * The same client-side adaptive aggregator for a server: the clients clip with the round's C
   * (sent in the fit config) and report {@code norm_bit}, 1 when their update was within C, as
   * Flower's {@code adaptiveclipping_mod} does; the count of those bits moves C. Its {@code next}
   * takes the bits after the example counts, so the client update must carry {@code norm_bit}.
   *
   * @throws IllegalArgumentException unless the aggregator is client-side with adaptive clipping
   */
  public DpAggregator withReportedNormBits() {
    return new DpAggregator(mode, noiseMultiplier, clippingNorm, numSampledClients, adaptive,
        localStddev, noise, secureBits, true);
  }

  /**
   * The same client-side aggregator summing through {@code federated_secure_sum_bitwidth}: each
   * client clips (and noises) its update, quantizes it to {@code bits}-bit integers over the
   * clipping range, and only the sum reaches the server, which adds the central noise to it.
   * That holds where the runtime runs the clients' steps on the clients' behalf (a simulation,
   * with SecAgg+ as its secure summation); a Flower server, whose runtime would run them in the
   * server, refuses the aggregator ({@code SecureSumRefusedException}).
   *
   * @throws IllegalArgumentException when the aggregator is not client-side, or {@code bits} is
   *     not 1 to 42
   */
  public DpAggregator withSecureSum(int bits) {
    return new DpAggregator(mode, noiseMultiplier, clippingNorm, numSampledClients, adaptive,
        localStddev, noise, OptionalInt.of(bits), reportedNormBits);
  }

  /** Central DP with a fixed clipping norm (Flower's {@code ...ServerSideFixedClipping}). */
  public static DpAggregator fixed(double noiseMultiplier, double clippingNorm,
      int numSampledClients, DpNoise noise) {
    return new DpAggregator(DpMode.CENTRAL, noiseMultiplier, clippingNorm, numSampledClients,
        Optional.empty(), 0, noise);
  }

  /** Central DP with adaptive clipping from {@code initialClippingNorm}. */
  public static DpAggregator adaptive(double noiseMultiplier, double initialClippingNorm,
      int numSampledClients, AdaptiveClipping adaptive, DpNoise noise) {
    return new DpAggregator(DpMode.CENTRAL, noiseMultiplier, initialClippingNorm,
        numSampledClients, Optional.of(adaptive), 0, noise);
  }

  /** The same aggregator with the clip declared as the clients' (client-side DP). */
  public DpAggregator clientSide() {
    return new DpAggregator(DpMode.CLIENT, noiseMultiplier, clippingNorm, numSampledClients,
        adaptive, localStddev, noise, secureBits, reportedNormBits);
  }

  /** The same client-side aggregator with local noise of {@code stddev} on each update. */
  public DpAggregator withLocalNoise(double stddev) {
    return new DpAggregator(DpMode.CLIENT, noiseMultiplier, clippingNorm, numSampledClients,
        adaptive, stddev, noise, secureBits, reportedNormBits);
  }

  /**
   * The noise multiplier of the model update: z, or with adaptive clipping the larger one that
   * leaves room for the count's noise.
   */
  public double updateNoiseMultiplier() {
    return adaptive.map(a -> a.updateNoiseMultiplier(noiseMultiplier)).orElse(noiseMultiplier);
  }

  @Override
  public String name() {
    return "dp_" + mode.cliName() + (adaptive.isPresent() ? "_adaptive" : "_fixed")
        + (secureBits.isPresent() ? "_secure" : "");
  }

  @Override
  public AggregationProcess create(StructType model) {
    Type stateAt = new FederatedType(STATE, Placement.SERVER, true);
    Type updates = new FederatedType(model, Placement.CLIENTS, false);
    Type weights = new FederatedType(INT64, Placement.CLIENTS, false);
    Computation initialState = Federated.local(name() + "_initial_state",
        FunctionType.noParameter(STATE), x -> state(0, clippingNorm, clippingNorm, 0));
    Computation initialize = Federated.computation(
        () -> Intrinsics.federatedEval(initialState, Placement.SERVER));
    Optional<QuantizedSum> secure = quantizedSum();
    Type sent = secure.isPresent() ? QuantizedSum.integers(model) : model;
    StructType clipped = StructType.named("update", sent, "unclipped", INT64);
    Computation clip = Federated.local(name() + "_clip", FunctionType.of(reportedNormBits
        ? StructType.of(model, FLOAT64, INT64, INT64) : StructType.of(model, FLOAT64, INT64),
        clipped), x -> clip(model, (StructValue) x, secure));
    Computation one = Federated.computation(INT64,
        x -> Federated.constant(Tensor.ofLongs(Shape.scalar(), 1)));
    Computation serverStep = Federated.local(name() + "_noise", FunctionType.of(
        StructType.of(STATE, sent, INT64, INT64), StructType.of(STATE, model)),
        x -> serverStep(model, (StructValue) x, secure));
    StructType parameters = reportedNormBits ? StructType.of(stateAt, updates, weights, weights)
        : StructType.of(stateAt, updates, weights);
    Computation next = Federated.computation(parameters, arg -> {
      Value state = arg.get(0);
      Value clipNorm = Intrinsics.federatedBroadcast(state.get("clip_norm"));
      Value round = Intrinsics.federatedBroadcast(state.get("round"));
      Value out = Intrinsics.federatedMap(clip, reportedNormBits
          ? Federated.struct(arg.get(1), clipNorm, round, arg.get(3))
          : Federated.struct(arg.get(1), clipNorm, round));
      // With a secure sum the server learns only the totals: of the quantized updates, and of
      // the clients within C (adaptive clipping's count, noised by the server afterwards).
      Value sum = secure.isPresent()
          ? Intrinsics.federatedSecureSumBitwidth(out.get("update"),
              Federated.constant(Tensor.ofInts(Shape.scalar(), secure.get().sumBits())))
          : Intrinsics.federatedSum(out.get("update"));
      Value unclipped = secure.isPresent()
          ? Intrinsics.federatedSecureSumBitwidth(out.get("unclipped"),
              Federated.constant(Tensor.ofInts(Shape.scalar(), QuantizedSum.HEADROOM + 1)))
          : Intrinsics.federatedSum(out.get("unclipped"));
      Value count = Intrinsics.federatedSum(Intrinsics.federatedMap(one, out.get("unclipped")));
      Value r = Intrinsics.federatedApply(serverStep,
          Intrinsics.federatedZip(Federated.struct(state, sum, unclipped, count)));
      return Federated.struct(r.get(0), r.get(1));
    });
    return reportedNormBits ? AggregationProcess.stateful(initialize, next, ClientSignal.NORM_BIT)
        : AggregationProcess.stateful(initialize, next);
  }

  private Optional<QuantizedSum> quantizedSum() {
    return secureBits.isPresent()
        ? Optional.of(new QuantizedSum(secureBits.getAsInt(), localStddev)) : Optional.empty();
  }

  /**
   * One client's clip (and local noise, and quantization for a secure sum): {@code <M,C,round>
   * -> <update=M or its integers,unclipped=int64>}.
   */
  private StructValue clip(StructType model, StructValue x, Optional<QuantizedSum> secure) {
    List<Tensor> update = ModelLeaves.of(x.get(0));
    double c = x.tensor(1).item();
    Clipping.Clipped clipped = Clipping.clip(update, c);
    List<Tensor> sent = clipped.update();
    if (localStddev > 0) {
      long round = x.tensor(2).longItem() + 1;
      // Seeded noise needs a stream per client; the update's own bits give one without naming
      // the client (identical updates get identical noise, acceptable for experiments only).
      sent = Clipping.addGaussianNoise(sent, localStddev,
          noise.source(round, 1 + (Leaves.hash(update) & Long.MAX_VALUE)));
    }
    Object out = secure.isPresent()
        ? ModelLeaves.rebuild((StructType) QuantizedSum.integers(model),
            secure.get().quantize(sent, c))
        : ModelLeaves.rebuild(model, sent);
    // On a server the updates arrive clipped: whether a client was within C is its own report.
    long unclipped = reportedNormBits ? (x.tensor(3).longItem() == 0 ? 0 : 1)
        : clipped.clipped() ? 0 : 1;
    return StructValue.named("update", out, "unclipped", Tensor.ofLongs(Shape.scalar(),
        unclipped));
  }

  /** The server's part: {@code <A,sum,unclipped,count> -> <A,mean+noise>}. */
  private StructValue serverStep(StructType model, StructValue x,
      Optional<QuantizedSum> secure) {
    StructValue st = x.struct(0);
    long round = st.tensor("round").longItem() + 1;
    double c = st.tensor("clip_norm").item();
    long unclipped = x.tensor(2).longItem();
    long count = x.tensor(3).longItem();
    if (count < 1) {
      throw new IllegalArgumentException("differential privacy: no client update to aggregate");
    }
    List<Tensor> sum = secure.isPresent() ? secure.get().dequantize(model, x.get(1), count, c)
        : ModelLeaves.of(x.get(1));
    List<Tensor> mean = new ArrayList<>(sum.size());
    for (Tensor t : sum) {
      mean.add(Leaves.scale(t, 1.0 / numSampledClients));
    }
    double stddev = DpFormulas.centralStddev(updateNoiseMultiplier(), c, numSampledClients);
    var source = noise.source(round, 0);
    List<Tensor> noised = Clipping.addGaussianNoise(mean, stddev, source);
    double nextC = c;
    if (adaptive.isPresent()) {
      int n = (int) Math.max(numSampledClients, count);
      nextC = adaptive.get().next(c, (int) unclipped, n, source);
    }
    return StructValue.of(state(round, nextC, c, stddev), ModelLeaves.rebuild(model, noised));
  }

  private static StructValue state(long round, double clipNorm, double usedClipNorm,
      double stddev) {
    return StructValue.named("round", Tensor.ofLongs(Shape.scalar(), round),
        "clip_norm", Tensor.scalar(clipNorm), "metrics", StructValue.named(
            CLIP_NORM, Tensor.scalar(usedClipNorm), NOISE_STDDEV, Tensor.scalar(stddev)));
  }
}
