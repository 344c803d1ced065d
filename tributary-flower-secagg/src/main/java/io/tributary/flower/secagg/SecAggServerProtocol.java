package io.tributary.flower.secagg;

import io.tributary.flower.Scalar;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.SecureFitProtocol;
import io.tributary.privacy.secagg.Rounding;
import io.tributary.privacy.secagg.SecAggException;
import io.tributary.privacy.secagg.SecAggMessage;
import io.tributary.privacy.secagg.SecAggRandomness;
import io.tributary.privacy.secagg.SecAggServer;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.privacy.secagg.SecAggStage;
import io.tributary.privacy.secagg.SecAggWire;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The server side of SecAgg+ over Flower: one secure fit round as the four stages'
 * FitIns/FitRes exchanges ({@link SecAggFlower}'s layout), each client's answer screened
 * ({@link SecAggServer#screen}) so that a hostile one is excluded, never trusted; the result is
 * the example-weighted mean update of the survivors, from their sum and total examples only.
 *
 * <p>{@code io.tributary.flower.server.FlowerServer} finds it through
 * {@link java.util.ServiceLoader} (this module registers it) when its configuration asks for
 * {@link SecureAggregation}.
 */
public final class SecAggServerProtocol implements SecureFitProtocol {
  private final SecureRandom random = new SecureRandom();

  /** The protocol, as {@link java.util.ServiceLoader} creates it. */
  public SecAggServerProtocol() {}

  @Override
  public String name() {
    return "SecAgg+";
  }

  /** Four: one per stage (keys, shares, masked input, unmasking). */
  @Override
  public int exchanges() {
    return SecAggStage.values().length;
  }

  @Override
  public Outcome run(SecureAggregation options, List<Tensor> model,
      Map<String, Scalar> fitConfig, Exchange exchange) {
    int n = exchange.clients();
    if (n < 2) {
      throw new Failed("secure aggregation needs at least 2 clients, got " + n, null);
    }
    long m = 0;
    for (Tensor t : model) {
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
        configs.put(i, new SecAggFlower.Parameters(i, n, settings.neighbours(),
            settings.threshold(), options.bits(), options.exampleBits(), options.clippingRange(),
            settings.graphSeed()).toConfig());
      }
      Map<Integer, SecAggMessage> got = exchange(exchange, server, SecAggStage.ADVERTISE_KEYS,
          configs, Map.of(), false, Map.of());
      var directories = server.collectKeys(only(got, SecAggMessage.AdvertiseKeys.class));
      // Stage 2: encrypted shares.
      got = exchange(exchange, server, SecAggStage.SHARE_KEYS, messages(directories), Map.of(),
          false, Map.of());
      var routed = server.collectShares(only(got, SecAggMessage.ShareKeys.class));
      // Stage 3: training and masked inputs.
      Map<Integer, int[]> senders = new TreeMap<>();
      routed.forEach((i, shares) -> senders.put(i, shares.senders()));
      got = exchange(exchange, server, SecAggStage.MASKED_INPUT, messages(routed), fitConfig,
          true, senders);
      var requests = server.collectMaskedInputs(only(got, SecAggMessage.MaskedInput.class));
      // Stage 4: unmasking.
      got = exchange(exchange, server, SecAggStage.UNMASK, messages(requests), Map.of(), false,
          Map.of());
      long[] sum = server.collectUnmaskShares(only(got, SecAggMessage.UnmaskShares.class));
      return outcome(options, sum, requests.size(), model, clippingNorm(fitConfig));
    } catch (SecAggException e) {
      throw new Failed("secure aggregation failed (" + e.reason() + "), no sum revealed: "
          + e.getMessage(), e);
    }
  }

  /**
   * The survivors' example-weighted mean update, after the checks that what the unmasked sum
   * says is possible for honest clients; any failure refuses the round, naming its check.
   *
   * <ul>
   *   <li>examples check: the total {@code N} is 1 to {@code survivors * (2^exampleBits - 1)}
   *       (exactly {@code survivors} with client-side DP, where every client weighs 1);
   *   <li>range check: every coordinate of the sum is at most {@code N * (2^bits - 1)}, so every
   *       element of the mean is within the quantization range {@code [-c, c]};
   *   <li>clip check (client-side DP, clipping norm {@code C}): the mean's L2 norm is at most
   *       {@code C} plus the quantization error {@code step * sqrt(m)}.
   * </ul>
   *
   * <p>A participant controls its masked vector, so it can still move the mean anywhere these
   * checks allow; they bound how far (docs/security.md).
   */
  private static Outcome outcome(SecureAggregation options, long[] sum, int survivors,
      List<Tensor> model, double dpClip) {
    long examples = sum[sum.length - 1];
    long maxExamples = Double.isNaN(dpClip) ? survivors * ((1L << options.exampleBits()) - 1)
        : survivors;
    if (examples <= 0 || examples > maxExamples) {
      throw new Failed("secure aggregation refused the sum (examples check): the "
          + survivors + " surviving clients claim " + Long.toUnsignedString(examples)
          + " examples in all, outside 1 to " + maxExamples
          + (Double.isNaN(dpClip) ? " (" + survivors + " x (2^" + options.exampleBits()
          + " - 1))" : " (each weighs 1 under client-side DP)")
          + "; the model is kept", null);
    }
    long qmax = (1L << options.bits()) - 1;
    // N * qmax < 2^(exampleBits + clientBits + bits) <= 2^64: exact as an unsigned long.
    long bound = examples * qmax;
    for (int j = 0; j < sum.length - 1; j++) {
      if (Long.compareUnsigned(sum[j], bound) > 0) {
        throw new Failed("secure aggregation refused the sum (range check): element " + j
            + " is " + Long.toUnsignedString(sum[j]) + ", above " + examples + " examples x (2^"
            + options.bits() + " - 1) = " + Long.toUnsignedString(bound)
            + ": some client's input was outside the quantization range; the model is kept",
            null);
      }
    }
    double step = 2 * options.clippingRange() / (double) qmax;
    List<Tensor> out = new ArrayList<>();
    double norm = 0;
    int at = 0;
    for (Tensor t : model) {
      int size = (int) t.size();
      double[] mean = new double[size];
      for (int j = 0; j < size; j++) {
        // sum_i n_i q_ij * step / N - c: the examples-weighted mean of the dequantized updates.
        mean[j] = unsigned(sum[at++]) * step / examples - options.clippingRange();
        norm += mean[j] * mean[j];
      }
      out.add(TensorMath.fromDoubles(t.dtype(), t.shape(), mean));
    }
    if (!Double.isNaN(dpClip)) {
      // Each dequantized element is within one step of the clipped value it stands for.
      double allowed = dpClip + step * Math.sqrt(sum.length - 1) + 1e-9 * dpClip;
      if (Math.sqrt(norm) > allowed) {
        throw new Failed("secure aggregation refused the sum (clip check): the mean update's "
            + "L2 norm is " + Math.sqrt(norm) + ", above the clipping norm " + dpClip
            + " plus the quantization error (" + allowed + "): some client did not clip its "
            + "update; the model is kept", null);
      }
    }
    return new Outcome(out, examples, survivors);
  }

  /** The fit config's {@code clipping_norm} (client-side DP), or NaN when it has none. */
  private static double clippingNorm(Map<String, Scalar> fitConfig) {
    Scalar c = fitConfig.get("clipping_norm");
    return c == null ? Double.NaN : c.asDouble().orElse(Double.NaN);
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
   * Sends every addressed client its stage's FitIns (its config, the stage, {@code extra}) and
   * returns the screened answers; a client that the exchange excludes, that answers badly or is
   * refused by the screen is excluded with its reason. In the masked-input stage a client may
   * accuse a neighbour that sent it shares ({@code senders}) of tampering with them: both are
   * excluded.
   */
  private static Map<Integer, SecAggMessage> exchange(Exchange exchange, SecAggServer server,
      SecAggStage stage, Map<Integer, Map<String, Scalar>> configs, Map<String, Scalar> extra,
      boolean withModel, Map<Integer, int[]> senders) {
    String name = SecAggFlower.stageName(stage);
    Map<Integer, Map<String, Scalar>> sent = new TreeMap<>();
    configs.forEach((i, own) -> {
      Map<String, Scalar> config = new LinkedHashMap<>(extra);
      config.putAll(own);
      config.put(SecAggFlower.STAGE, Scalar.of(name));
      sent.put(i, config);
    });
    Map<Integer, Map<String, Scalar>> answers = exchange.fit(name, sent, withModel);
    Map<Integer, SecAggMessage> accepted = new TreeMap<>();
    List<Integer> accused = new ArrayList<>();
    for (Map.Entry<Integer, Map<String, Scalar>> e : answers.entrySet()) {
      int i = e.getKey();
      Map<String, Scalar> metrics = e.getValue();
      try {
        if (!name.equals(SecAggFlower.stringOf(metrics, SecAggFlower.STAGE))) {
          throw new IllegalArgumentException("answered stage "
              + metrics.get(SecAggFlower.STAGE));
        }
        if (stage == SecAggStage.MASKED_INPUT && metrics.containsKey(SecAggFlower.ACCUSED)) {
          int other = SecAggFlower.intOf(metrics, SecAggFlower.ACCUSED);
          String why = metrics.get(SecAggFlower.ERROR) instanceof Scalar.Str s ? s.value() : "";
          int[] from = senders.getOrDefault(i, new int[0]);
          if (Arrays.binarySearch(from, other) < 0) {
            exchange.exclude(i, name, "accused client " + other + ", which sent it no shares");
            continue;
          }
          exchange.exclude(i, name, "could not mask its input, accusing client " + other + ": "
              + why);
          accused.add(other);
          continue;
        }
        SecAggMessage msg = SecAggWire.decode(SecAggFlower.bytesOf(metrics,
            SecAggFlower.MESSAGE));
        Optional<SecAggException> refusal = server.screen(i, msg);
        if (refusal.isPresent()) {
          exchange.exclude(i, name, refusal.get().reason() + ": "
              + refusal.get().getMessage());
          continue;
        }
        accepted.put(i, msg);
      } catch (SecAggException ex) {
        exchange.exclude(i, name, ex.reason() + ": " + ex.getMessage());
      } catch (IllegalArgumentException ex) {
        exchange.exclude(i, name, "malformed answer: " + ex.getMessage());
      }
    }
    for (int a : accused) {
      if (accepted.remove(a) != null) {
        exchange.exclude(a, name, "accused of sending tampered shares; its masked "
            + "input is left out and its masks are removed as for a dropped client");
      }
    }
    return accepted;
  }
}
