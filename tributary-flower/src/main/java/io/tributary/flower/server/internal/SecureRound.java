package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.Scalar;
import io.tributary.flower.internal.MalformedMessageException;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Code;
import io.tributary.flower.internal.proto.Parameters;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.secagg.SecAggFlower;
import io.tributary.flower.server.RemoteClientException;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.privacy.secagg.Rounding;
import io.tributary.privacy.secagg.SecAggException;
import io.tributary.privacy.secagg.SecAggRandomness;
import io.tributary.privacy.secagg.SecAggMessage;
import io.tributary.privacy.secagg.SecAggServer;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.privacy.secagg.SecAggStage;
import io.tributary.privacy.secagg.SecAggWire;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One SecAgg+ fit round over the Flower transport: the four stages as FitIns/FitRes exchanges
 * with the sampled clients ({@link SecAggFlower}'s layout), each client's message screened
 * ({@link SecAggServer#screen}) so that a hostile one is excluded, never trusted; the result is
 * the example-weighted mean update of the survivors, from their sum and total examples only.
 */
final class SecureRound {
  private static final Logger LOG = LoggerFactory.getLogger(SecureRound.class);

  /** The outcome of a successful round. */
  record Outcome(List<Tensor> meanDelta, long examples, int survivors) {}

  /** A round that failed; the model is kept and no sum was revealed. */
  static final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final SecureAggregation options;
  private final ModelSpec spec;
  private final Optional<Duration> timeout;
  private final BiFunction<ClientProxy, StructValue, Parameters> encoder;
  private final SecureRandom random = new SecureRandom();
  private final List<String> exclusions = new ArrayList<>();

  SecureRound(SecureAggregation options, ModelSpec spec, Optional<Duration> timeout,
      BiFunction<ClientProxy, StructValue, Parameters> encoder) {
    this.options = options;
    this.spec = spec;
    this.timeout = timeout;
    this.encoder = encoder;
  }

  /** Forgets the last round's exclusions, before a new round. */
  void reset() {
    synchronized (exclusions) {
      exclusions.clear();
    }
  }

  /** Why clients were excluded from the last round, one line per client. */
  List<String> exclusions() {
    synchronized (exclusions) {
      return List.copyOf(exclusions);
    }
  }

  /**
   * Runs the round over {@code clients} from {@code model}.
   *
   * @throws Failed when too few clients remain at some stage, or the sum cannot be had exactly
   */
  Outcome run(List<ClientProxy> clients, StructValue model, Map<String, Scalar> fitConfig) {
    reset();
    int n = clients.size();
    if (n < 2) {
      throw new Failed("secure aggregation needs at least 2 clients, got " + n, null);
    }
    long m = 0;
    for (Tensor t : ModelSpec.tensors(model)) {
      m += t.size();
    }
    if (m + 1 > Integer.MAX_VALUE) {
      throw new Failed("the model has " + m + " parameters, too many to mask", null);
    }
    int length = (int) m + 1;
    SecAggSettings settings = new SecAggSettings(options.neighbours(), options.threshold(),
        options.bits() + options.exampleBits(), options.clippingRange(), Rounding.STOCHASTIC,
        random.nextLong(), SecAggRandomness.secure()).forClients(n);
    int clientBits = 32 - Integer.numberOfLeadingZeros(n - 1);
    if (options.bits() + options.exampleBits() + clientBits > 64) {
      throw new Failed("secure aggregation of " + n + " clients with " + options.bits()
          + " bits and " + options.exampleBits() + " example bits needs a modulus of "
          + (options.bits() + options.exampleBits() + clientBits) + " bits, over 64", null);
    }
    SecAggServer server = new SecAggServer(n, length, settings);
    try {
      // Stage 1: keys.
      Map<Integer, Map<String, Scalar>> configs = new TreeMap<>();
      for (int i = 0; i < n; i++) {
        Map<String, Scalar> c = new LinkedHashMap<>(new SecAggFlower.Parameters(i, n,
            settings.neighbours(), settings.threshold(), options.bits(), options.exampleBits(),
            options.clippingRange(), settings.graphSeed()).toConfig());
        configs.put(i, c);
      }
      Map<Integer, SecAggMessage> got = exchange(server, clients, SecAggStage.ADVERTISE_KEYS,
          configs, Map.of(), null, Map.of());
      var directories = server.collectKeys(only(got, SecAggMessage.AdvertiseKeys.class));
      // Stage 2: encrypted shares.
      got = exchange(server, clients, SecAggStage.SHARE_KEYS, messages(directories), Map.of(),
          null, Map.of());
      var routed = server.collectShares(only(got, SecAggMessage.ShareKeys.class));
      // Stage 3: training and masked inputs.
      Map<Integer, int[]> senders = new TreeMap<>();
      routed.forEach((i, shares) -> senders.put(i, shares.senders()));
      got = exchange(server, clients, SecAggStage.MASKED_INPUT, messages(routed), fitConfig,
          model, senders);
      var requests = server.collectMaskedInputs(only(got, SecAggMessage.MaskedInput.class));
      // Stage 4: unmasking.
      got = exchange(server, clients, SecAggStage.UNMASK, messages(requests), Map.of(), null,
          Map.of());
      long[] sum = server.collectUnmaskShares(only(got, SecAggMessage.UnmaskShares.class));
      return outcome(sum, requests.size(), model);
    } catch (SecAggException e) {
      throw new Failed("secure aggregation failed (" + e.reason() + "), no sum revealed: "
          + e.getMessage(), e);
    }
  }

  private Outcome outcome(long[] sum, int survivors, StructValue model) {
    long examples = sum[sum.length - 1];
    if (examples <= 0) {
      throw new Failed("the " + survivors + " surviving clients trained on 0 examples", null);
    }
    double step = 2 * options.clippingRange() / (double) ((1L << options.bits()) - 1);
    List<Tensor> out = new ArrayList<>();
    int at = 0;
    for (Tensor t : ModelSpec.tensors(model)) {
      int size = (int) t.size();
      double[] mean = new double[size];
      for (int j = 0; j < size; j++) {
        // sum_i n_i q_ij * step / N - c: the examples-weighted mean of the dequantized updates.
        mean[j] = unsigned(sum[at++]) * step / examples - options.clippingRange();
      }
      out.add(TensorMath.fromDoubles(t.dtype(), t.shape(), mean));
    }
    return new Outcome(out, examples, survivors);
  }

  private static double unsigned(long v) {
    return v >= 0 ? v : (v >>> 1) * 2.0 + (v & 1);
  }

  private static <T extends SecAggMessage> Map<Integer, Map<String, Scalar>> messages(
      Map<Integer, T> out) {
    Map<Integer, Map<String, Scalar>> c = new TreeMap<>();
    out.forEach((i, msg) -> c.put(i, Map.of(SecAggFlower.MESSAGE,
        new Scalar.Bytes(SecAggWire.encode(msg)))));
    return c;
  }

  private static <T extends SecAggMessage> List<T> only(Map<Integer, SecAggMessage> got,
      Class<T> kind) {
    return got.values().stream().map(kind::cast).toList();
  }

  /**
   * Sends every addressed client its stage's FitIns and returns the screened answers; a client
   * that fails, answers badly or is refused by the screen is excluded with its reason. In the
   * masked-input stage a client may accuse a neighbour that sent it shares ({@code senders})
   * of tampering with them: both are excluded.
   */
  private Map<Integer, SecAggMessage> exchange(SecAggServer server, List<ClientProxy> clients,
      SecAggStage stage, Map<Integer, Map<String, Scalar>> configs, Map<String, Scalar> extra,
      StructValue model, Map<Integer, int[]> senders) {
    Map<Integer, CompletableFuture<ClientMessage>> pending = new TreeMap<>();
    Map<Integer, ServerMessage> sent = new TreeMap<>();
    for (Map.Entry<Integer, Map<String, Scalar>> e : configs.entrySet()) {
      ClientProxy c = clients.get(e.getKey());
      Map<String, Scalar> config = new LinkedHashMap<>(extra);
      config.putAll(e.getValue());
      config.put(SecAggFlower.STAGE, Scalar.of(SecAggFlower.stageName(stage)));
      ServerMessage.FitIns.Builder ins = ServerMessage.FitIns.newBuilder()
          .putAllConfig(ScalarCodec.toProto(config));
      try {
        // Stages without the model send no tensors, in the client's tensor type.
        ins.setParameters(model == null
            ? Parameters.newBuilder().setTensorType(c.tensorType()).build()
            : encoder.apply(c, model));
      } catch (RemoteClientException ex) {
        exclude(e.getKey(), c, stage, ex.getMessage());
        continue;
      }
      ServerMessage message = ServerMessage.newBuilder().setFitIns(ins).build();
      sent.put(e.getKey(), message);
      try {
        pending.put(e.getKey(), c.request(message, timeout));
      } catch (IllegalStateException ex) {
        exclude(e.getKey(), c, stage, ex.getMessage());
      }
    }
    Map<Integer, SecAggMessage> accepted = new TreeMap<>();
    List<Integer> accused = new ArrayList<>();
    for (Map.Entry<Integer, CompletableFuture<ClientMessage>> e : pending.entrySet()) {
      int i = e.getKey();
      ClientProxy c = clients.get(i);
      ClientMessage answer;
      try {
        answer = RemoteCall.await(c, ServerMessage.MsgCase.FIT_INS, e.getValue(),
            ClientMessage.MsgCase.FIT_RES, () -> c.abandon(e.getValue(),
                "the secure round stopped waiting for its answer"));
      } catch (RemoteClientException ex) {
        exclude(i, c, stage, ex.getMessage());
        continue;
      }
      ClientMessage.FitRes res = answer.getFitRes();
      if (res.getStatus().getCode() != Code.OK) {
        exclude(i, c, stage, "FitRes reported " + res.getStatus().getCode() + ": "
            + res.getStatus().getMessage());
        continue;
      }
      Map<String, Scalar> metrics;
      try {
        metrics = ScalarCodec.fromProto(res.getMetricsMap());
      } catch (MalformedMessageException ex) {
        exclude(i, c, stage, "metrics: " + ex.getMessage());
        continue;
      }
      try {
        if (!SecAggFlower.stageName(stage).equals(
            SecAggFlower.stringOf(metrics, SecAggFlower.STAGE))) {
          throw new IllegalArgumentException("answered stage "
              + metrics.get(SecAggFlower.STAGE));
        }
        if (stage == SecAggStage.MASKED_INPUT && metrics.containsKey(SecAggFlower.ACCUSED)) {
          int other = SecAggFlower.intOf(metrics, SecAggFlower.ACCUSED);
          String why = metrics.get(SecAggFlower.ERROR) instanceof Scalar.Str s ? s.value() : "";
          int[] from = senders.getOrDefault(i, new int[0]);
          if (java.util.Arrays.binarySearch(from, other) < 0) {
            exclude(i, c, stage, "accused client " + other + ", which sent it no shares");
            continue;
          }
          exclude(i, c, stage, "could not mask its input, accusing client " + other + ": "
              + why);
          accused.add(other);
          continue;
        }
        SecAggMessage msg = SecAggWire.decode(SecAggFlower.bytesOf(metrics,
            SecAggFlower.MESSAGE));
        Optional<SecAggException> refusal = server.screen(i, msg);
        if (refusal.isPresent()) {
          exclude(i, c, stage, refusal.get().reason() + ": " + refusal.get().getMessage());
          continue;
        }
        accepted.put(i, msg);
      } catch (SecAggException ex) {
        exclude(i, c, stage, ex.reason() + ": " + ex.getMessage());
      } catch (IllegalArgumentException ex) {
        exclude(i, c, stage, "malformed answer: " + ex.getMessage());
      }
    }
    for (int a : accused) {
      if (accepted.remove(a) != null) {
        exclude(a, clients.get(a), stage, "accused of sending tampered shares; its masked "
            + "input is left out and its masks are removed as for a dropped client");
      }
    }
    return accepted;
  }

  private void exclude(int i, ClientProxy c, SecAggStage stage, String why) {
    String line = "secure aggregation: client " + i + " (" + c.id() + ") excluded at "
        + SecAggFlower.stageName(stage) + ": " + why;
    LOG.warn(line);
    synchronized (exclusions) {
      exclusions.add(line);
    }
  }
}
