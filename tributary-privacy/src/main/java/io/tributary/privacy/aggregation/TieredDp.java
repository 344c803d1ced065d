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
import io.tributary.learning.FederatedLearning;
import io.tributary.learning.HierarchicalFedAvg;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.ModelLeaves;
import io.tributary.privacy.Clipping;
import io.tributary.privacy.PrivacySpent;
import io.tributary.privacy.RdpAccountant;
import io.tributary.privacy.Sampling;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SequencedMap;

/**
 * Differentially private hierarchical FedAvg: each client clips its update to L2 norm C, each
 * edge sums its clients' clipped updates (through {@code federated_secure_sum_bitwidth_to_edges}
 * when {@link #secureBits} is set, so that with the runtime's SecAgg+ an edge learns only its
 * clients' sum), and Gaussian noise of standard deviation {@code z C} is added where {@link
 * #noiseAt} says.
 *
 * <ul>
 *   <li>{@link NoiseAt#EDGES}: every edge noises its own sum, in every edge round, before
 *       dividing by its clients' count and adding the mean to its model; the server then averages
 *       the edges' models weighted by their counts. The server sees only noised sums. A client's
 *       data enter one edge's sum in each of the k2 edge rounds of a cloud round, each a Gaussian
 *       mechanism of sensitivity C and noise {@code z C}; the k2 of them compose to one Gaussian
 *       mechanism of sensitivity {@code C sqrt(k2)} and the same noise, that is noise multiplier
 *       {@code z / sqrt(k2)}, on a cohort drawn once per cloud round. That is what {@link
 *       #accountedNoiseMultiplier} gives the accountant. The global update carries the noise of
 *       all E edges, standard deviation {@code z C sqrt(E)} on the sum of the K clients' updates
 *       per edge round, {@code sqrt(E)} times what server noise adds for the same guarantee: the
 *       price of not trusting the server with the edges' sums.
 *   <li>{@link NoiseAt#SERVER}: the edges pass their (plain or secure) sums up, the server adds
 *       noise of standard deviation {@code z C} to their total once, divides by the clients'
 *       count and adds the mean to its model. The server is trusted with the edges' sums (as
 *       central DP trusts it with the updates), and the noise multiplier is z. Only one edge
 *       round per cloud round is allowed: within several, the edges' later rounds would train on
 *       models that un-noised sums of earlier rounds moved, which no clipping bounds.
 * </ul>
 *
 * <p>Dividing by the clients' count, not a fixed expected count, is post-processing of the
 * noised sum and of a count that fixed-size sampling (replace-one neighbours, which {@link
 * Sampling#FIXED_SIZE} accounts for) keeps constant; a client that fails lowers it.
 *
 * @param noiseAt where the noise is added
 * @param noiseMultiplier z, positive and finite
 * @param clippingNorm C, positive and finite
 * @param edgeRounds k2, edge rounds per cloud round (1 with {@link NoiseAt#SERVER})
 * @param noise where the noise comes from; seeded noise (experiments only) takes an edge's
 *     stream from the bits of its sum, since an edge's computation does not know its index, so
 *     two edges with bit-identical sums draw the same noise
 * @param secureBits with a value b, each client quantizes its clipped update to b-bit integers
 *     and the edges sum them with {@code federated_secure_sum_bitwidth_to_edges}
 */
public record TieredDp(NoiseAt noiseAt, double noiseMultiplier, double clippingNorm,
    int edgeRounds, DpNoise noise, OptionalInt secureBits) {
  private static final TensorType INT64 = TensorType.of(DType.INT64);
  private static final TensorType FLOAT64 = TensorType.of(DType.FLOAT64);
  /** The round metric of the noise's standard deviation on the global mean update. */
  public static final String NOISE_STDDEV = DpAggregator.NOISE_STDDEV;
  /** A, the state the server keeps besides the model: the cloud rounds done. */
  public static final StructType STATE = StructType.named("round", INT64);

  /** Where the noise of a private hierarchical round is added. */
  public enum NoiseAt {
    /** Each edge noises its own sum: the server sees only noised sums. */
    EDGES,
    /** The server noises the total of the edges' sums: it is trusted with them. */
    SERVER;

    /** The name on the command line and in config.json, {@code edges} or {@code server}. */
    public String cliName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The placement named {@code text}.
     *
     * @throws IllegalArgumentException naming {@code --dp-at} when it is neither
     */
    public static NoiseAt parse(String text) {
      return switch (text) {
        case "edges" -> EDGES;
        case "server" -> SERVER;
        default -> throw new IllegalArgumentException("--dp-at must be edges or server, got '"
            + text + "'");
      };
    }
  }

  /**
   * Checks the parameters.
   *
   * @throws IllegalArgumentException naming the first out of range
   */
  public TieredDp {
    Objects.requireNonNull(noiseAt, "noiseAt");
    Objects.requireNonNull(noise, "noise");
    Objects.requireNonNull(secureBits, "secureBits");
    if (!(noiseMultiplier > 0) || Double.isInfinite(noiseMultiplier)) {
      throw new IllegalArgumentException("noise_multiplier must be positive and finite, got "
          + noiseMultiplier);
    }
    if (!(clippingNorm > 0) || Double.isInfinite(clippingNorm)) {
      throw new IllegalArgumentException("clipping_norm must be positive and finite, got "
          + clippingNorm);
    }
    if (edgeRounds < 1 || edgeRounds > HierarchicalFedAvg.MAX_EDGE_ROUNDS) {
      throw new IllegalArgumentException("edge_rounds must be 1 to "
          + HierarchicalFedAvg.MAX_EDGE_ROUNDS + ", got " + edgeRounds);
    }
    if (noiseAt == NoiseAt.SERVER && edgeRounds != 1) {
      throw new IllegalArgumentException("noise at the server needs edge_rounds 1, got "
          + edgeRounds + ": the edges' later rounds would train on un-noised sums; put the "
          + "noise at the edges");
    }
    secureBits.ifPresent(b -> new QuantizedSum(b, 0));
  }

  /**
   * The noise multiplier the accountant is given for one cloud round (one draw of the cohort):
   * z at the server; {@code z / sqrt(k2)} at the edges, the k2 edge rounds' Gaussian mechanisms
   * composed.
   */
  public double accountedNoiseMultiplier() {
    return noiseAt == NoiseAt.SERVER ? noiseMultiplier
        : noiseMultiplier / Math.sqrt(edgeRounds);
  }

  /**
   * The privacy spent after {@code rounds} cloud rounds, each drawing a fixed-size cohort, a
   * fraction {@code q} of the population (per edge, the largest fraction of any edge, when the
   * edges draw their own shares), at {@code delta}.
   *
   * @throws IllegalArgumentException when q or delta is out of range
   */
  public PrivacySpent spent(double q, long rounds, double delta) {
    RdpAccountant accountant = new RdpAccountant();
    accountant.compose(Sampling.FIXED_SIZE, q, accountedNoiseMultiplier(), rounds);
    return accountant.epsilon(delta);
  }

  /**
   * The private hierarchical process over any client work: {@code initialize} gives {@code
   * <model=M>@SERVER} (as {@link io.tributary.learning.FederatedAlgorithm#process} takes it), the
   * client update and the evaluation are those {@link #next} and {@link
   * FederatedLearning#evaluate(Computation)} take.
   *
   * @throws IllegalArgumentException if a part has another type
   */
  public LearningProcess process(Computation initialize, Computation clientUpdate,
      Computation evaluation) {
    Computation next = next(clientUpdate);
    Computation initialState = Federated.local("tiered_dp_initial_state",
        FunctionType.noParameter(STATE), x -> state(0));
    Computation full = Federated.computation(() -> Intrinsics.federatedZip(
        named("model", initialize.call().get("model"),
            "aggregator", Intrinsics.federatedEval(initialState, Placement.SERVER))));
    return new LearningProcess("hierfavg_dp_" + noiseAt.cliName(), full, next,
        FederatedLearning.evaluate(evaluation));
  }

  /**
   * One private cloud round, {@code (<<model=M,aggregator=A>@SERVER,{D}@CLIENTS> ->
   * <<model=M,aggregator=A>@SERVER,<train_loss=float32,num_examples=int64,clients=int64,
   * noise_stddev=float64>@SERVER>)}, for a client update {@code (<model=M,data=D> ->
   * <delta=M,num_examples=int64,loss=float32>)}; the runtime must know each client's edge.
   *
   * @throws IllegalArgumentException if the client update has another type
   */
  public Computation next(Computation clientUpdate) {
    if (!(clientUpdate.type().parameter().orElse(null) instanceof StructType p) || p.size() != 2
        || p.indexOf("model") != 0 || !(p.get(0) instanceof StructType m)
        || !(clientUpdate.type().result() instanceof StructType r) || r.size() != 3
        || r.indexOf("delta") != 0 || !r.get(0).equals(m)) {
      throw new IllegalArgumentException("the client update must have type (<model=M,data=D> -> "
          + "<delta=M,num_examples=int64,loss=float32>), got " + clientUpdate.type());
    }
    Type data = p.get(1);
    Optional<QuantizedSum> secure = secureBits.isPresent()
        ? Optional.of(new QuantizedSum(secureBits.getAsInt(), 0)) : Optional.empty();
    Type sent = secure.isPresent() ? QuantizedSum.integers(m) : m;
    Computation clip = Federated.local("tiered_dp_clip", FunctionType.of(m, sent),
        x -> clip(m, x, secure));
    Computation one = Federated.computation(INT64,
        x -> Federated.constant(Tensor.ofLongs(Shape.scalar(), 1)));
    Computation add = Federated.computation(StructType.of(m, m),
        pair -> Intrinsics.genericPlus(pair.get(0), pair.get(1)));
    Computation stddev = Federated.local("tiered_dp_stddev",
        FunctionType.of(StructType.of(INT64, INT64), FLOAT64),
        x -> Tensor.scalar(globalStddev(((StructValue) x).tensor(0).longItem(),
            ((StructValue) x).tensor(1).longItem())));
    Type state = new FederatedType(StructType.named("model", m, "aggregator", STATE),
        Placement.SERVER, true);
    Type clients = new FederatedType(data, Placement.CLIENTS, false);
    return Federated.computation(state, clients, (s, d) -> {
      Value edgeModel = Intrinsics.federatedBroadcastToEdges(s.get("model"));
      Value out = null;
      Value edgeCount = null;
      Value newModel = null;
      for (int k = 0; k < edgeRounds; k++) {
        Value clientModel = Intrinsics.federatedBroadcastFromEdges(edgeModel);
        out = Intrinsics.federatedMap(clientUpdate, Federated.struct(clientModel, d));
        Value clipped = Intrinsics.federatedMap(clip, out.get("delta"));
        Value edgeSum = secure.isPresent()
            ? Intrinsics.federatedSecureSumBitwidthToEdges(clipped,
                Federated.constant(Tensor.ofInts(Shape.scalar(), secure.get().sumBits())))
            : Intrinsics.federatedSumToEdges(clipped);
        edgeCount = Intrinsics.federatedSumToEdges(
            Intrinsics.federatedMap(one, out.get("num_examples")));
        if (noiseAt == NoiseAt.EDGES) {
          int edgeRound = k;
          Computation noised = Federated.local("tiered_dp_edge_noise_" + k,
              FunctionType.of(StructType.of(sent, INT64), m),
              x -> edgeMean(m, (StructValue) x, secure, edgeRound));
          Value edgeDelta = Intrinsics.federatedMap(noised,
              Federated.struct(edgeSum, edgeCount));
          edgeModel = Intrinsics.federatedMap(add, Federated.struct(edgeModel, edgeDelta));
        } else {
          Computation serverStep = Federated.local("tiered_dp_server_noise",
              FunctionType.of(StructType.of(STATE, sent, INT64), m),
              x -> serverMean(m, (StructValue) x, secure));
          Value total = Intrinsics.federatedSumFromEdges(edgeSum);
          Value count = Intrinsics.federatedSumFromEdges(edgeCount);
          Value delta = Intrinsics.federatedApply(serverStep, Intrinsics.federatedZip(
              Federated.struct(s.get("aggregator"), total, count)));
          newModel = Intrinsics.federatedApply(add,
              Intrinsics.federatedZip(Federated.struct(s.get("model"), delta)));
        }
      }
      if (noiseAt == NoiseAt.EDGES) {
        newModel = Intrinsics.federatedWeightedMeanFromEdges(edgeModel, edgeCount);
      }
      Computation nextState = Federated.local("tiered_dp_next_state",
          FunctionType.of(STATE, STATE),
          x -> state(((StructValue) x).tensor("round").longItem() + 1));
      Value examples = out.get("num_examples");
      Value clientCount = Intrinsics.federatedSum(Intrinsics.federatedMap(one, examples));
      Value edgeTotal = Intrinsics.federatedSumFromEdges(Intrinsics.federatedMap(one,
          edgeCount));
      SequencedMap<String, Value> figures = new LinkedHashMap<>();
      figures.put("train_loss", Intrinsics.federatedWeightedMean(out.get("loss"), examples));
      figures.put("num_examples", Intrinsics.federatedSum(examples));
      figures.put("clients", clientCount);
      figures.put(NOISE_STDDEV, Intrinsics.federatedApply(stddev,
          Intrinsics.federatedZip(Federated.struct(edgeTotal, clientCount))));
      return Federated.struct(
          Intrinsics.federatedZip(named("model", newModel, "aggregator",
              Intrinsics.federatedApply(nextState, s.get("aggregator")))),
          Intrinsics.federatedZip(Federated.struct(figures)));
    });
  }

  /**
   * The standard deviation of the noise on the global mean update of one edge round, with
   * {@code edges} edges and {@code clients} clients: {@code z C sqrt(E) / K} at the edges (each
   * edge's noise, summed), {@code z C / K} at the server.
   */
  public double globalStddev(long edges, long clients) {
    double perSum = noiseMultiplier * clippingNorm;
    return (noiseAt == NoiseAt.EDGES ? perSum * Math.sqrt(edges) : perSum)
        / Math.max(1, clients);
  }

  /** One client's clip, and its quantization for a secure sum. */
  private Object clip(StructType model, Object update, Optional<QuantizedSum> secure) {
    Clipping.Clipped clipped = Clipping.clip(ModelLeaves.of(update), clippingNorm);
    return secure.isPresent()
        ? ModelLeaves.rebuild((StructType) QuantizedSum.integers(model),
            secure.get().quantize(clipped.update(), clippingNorm))
        : ModelLeaves.rebuild(model, clipped.update());
  }

  /** An edge's step: {@code <sum,count> -> (sum + noise) / count}. */
  private Object edgeMean(StructType model, StructValue x, Optional<QuantizedSum> secure,
      int edgeRound) {
    long count = x.tensor(1).longItem();
    if (count < 1) {
      throw new IllegalArgumentException("differential privacy: an edge has no client update "
          + "to aggregate");
    }
    List<Tensor> sum = sum(model, x.get(0), count, secure);
    // Secure noise draws afresh; seeded noise (experiments only) needs a stream per edge, which
    // the sum's own bits give without the edge's index.
    long stream = 1 + ((Leaves.hash(sum) ^ (0x9E3779B97F4A7C15L * (edgeRound + 1)))
        & Long.MAX_VALUE);
    return ModelLeaves.rebuild(model, meanOfNoised(sum, count, noise.source(0, stream)));
  }

  /** The server's step: {@code <A,total,count> -> (total + noise) / count}. */
  private Object serverMean(StructType model, StructValue x, Optional<QuantizedSum> secure) {
    long round = x.struct(0).tensor("round").longItem() + 1;
    long count = x.tensor(2).longItem();
    if (count < 1) {
      throw new IllegalArgumentException("differential privacy: no client update to aggregate");
    }
    List<Tensor> sum = sum(model, x.get(1), count, secure);
    return ModelLeaves.rebuild(model, meanOfNoised(sum, count, noise.source(round, 0)));
  }

  private List<Tensor> sum(StructType model, Object sum, long count,
      Optional<QuantizedSum> secure) {
    return secure.isPresent() ? secure.get().dequantize(model, sum, count, clippingNorm)
        : ModelLeaves.of(sum);
  }

  private List<Tensor> meanOfNoised(List<Tensor> sum, long count,
      io.tributary.privacy.NoiseSource source) {
    List<Tensor> noised = Clipping.addGaussianNoise(sum, noiseMultiplier * clippingNorm, source);
    List<Tensor> mean = new ArrayList<>(noised.size());
    for (Tensor t : noised) {
      mean.add(Leaves.scale(t, 1.0 / count));
    }
    return mean;
  }

  private static StructValue state(long round) {
    return StructValue.named("round", Tensor.ofLongs(Shape.scalar(), round));
  }

  private static Value named(Object... nameValuePairs) {
    SequencedMap<String, Value> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValuePairs.length; i += 2) {
      m.put((String) nameValuePairs[i], (Value) nameValuePairs[i + 1]);
    }
    return Federated.struct(m);
  }
}
