package io.tributary.flower.secagg;

import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientException;
import io.tributary.flower.ForwardingFlowerClient;
import io.tributary.flower.Scalar;
import io.tributary.privacy.secagg.Quantizer;
import io.tributary.privacy.secagg.Rounding;
import io.tributary.privacy.secagg.SecAggClient;
import io.tributary.privacy.secagg.SecAggException;
import io.tributary.privacy.secagg.SecAggMessage;
import io.tributary.privacy.secagg.SecAggStage;
import io.tributary.privacy.secagg.SecAggWire;
import io.tributary.tensor.Tensor;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lets any Java {@link FlowerClient} take part in SecAgg+ rounds: a FitIns whose config names a
 * {@link SecAggFlower#STAGE} is answered by this adapter's {@link SecAggClient}, and every other
 * instruction goes to the wrapped client unchanged (so the adapter also works with a server that
 * does not aggregate securely).
 *
 * <p>In the {@code masked_input} stage the wrapped client trains as usual (its config without
 * the {@code secagg_} entries); the adapter takes its update (trained minus received
 * parameters), clips it to the round's range, quantizes it with stochastic rounding, multiplies
 * it by the example count (capped at {@code 2^exampleBits - 1}), appends the count, masks the
 * vector and sends only that: the wrapped client's parameters and metrics never leave the
 * machine in a secure round. The layout is {@link SecAggFlower}'s.
 *
 * <p>When the config carries {@code clipping_norm} C (client-side differential privacy: the
 * server adds noise to the sum), the adapter itself clips the update to L2 norm C before
 * quantizing, whatever the wrapped client did, and weighs it 1 instead of by its examples, so
 * that each client moves the sum by at most C, the sensitivity the server's noise is scaled to.
 *
 * <p>Not thread-safe: the runner calls it one instruction at a time.
 */
public final class SecAggClientAdapter extends ForwardingFlowerClient {
  private final SecureRandom random = new SecureRandom();
  private SecAggFlower.Parameters parameters;
  private SecAggClient client;

  /** An adapter around {@code delegate}. */
  public SecAggClientAdapter(FlowerClient delegate) {
    super(delegate);
  }

  @Override
  public FitRes fit(FitIns ins) throws FlowerClientException {
    if (!ins.config().containsKey(SecAggFlower.STAGE)) {
      return super.fit(ins);
    }
    try {
      SecAggStage stage = SecAggFlower.stage(
          SecAggFlower.stringOf(ins.config(), SecAggFlower.STAGE));
      return switch (stage) {
        case ADVERTISE_KEYS -> {
          parameters = SecAggFlower.Parameters.fromConfig(ins.config());
          client = new SecAggClient(parameters.client(), parameters.clients(),
              parameters.settings());
          yield answer(stage, client.advertiseKeys());
        }
        case SHARE_KEYS -> answer(stage, current().shareKeys(
            received(ins, SecAggMessage.KeyDirectory.class)));
        case MASKED_INPUT -> maskedInput(ins);
        case UNMASK -> {
          FitRes r = answer(stage, current().unmask(
              received(ins, SecAggMessage.UnmaskRequest.class)));
          client = null;
          yield r;
        }
      };
    } catch (SecAggException | IllegalArgumentException e) {
      client = null;
      throw new FlowerClientException("secure aggregation: " + e.getMessage(), e);
    }
  }

  private FitRes maskedInput(FitIns ins) throws FlowerClientException {
    SecAggClient c = current();
    SecAggMessage.EncryptedShares shares = received(ins,
        SecAggMessage.EncryptedShares.class);
    Map<String, Scalar> plain = new LinkedHashMap<>();
    ins.config().forEach((k, v) -> {
      if (!SecAggFlower.isSecAggKey(k)) {
        plain.put(k, v);
      }
    });
    FitRes trained = delegate().fit(new FitIns(ins.parameters(), plain));
    long[] input = input(ins.parameters(), trained, clippingNorm(plain));
    try {
      SecAggMessage.MaskedInput masked = c.maskedInput(shares, input);
      return answer(SecAggStage.MASKED_INPUT, masked);
    } catch (SecAggException e) {
      client = null;
      if (e.client().isPresent() && e.client().getAsInt() != c.id()) {
        // A neighbour's shares do not decrypt or verify: accuse it instead of masking.
        return new FitRes(List.of(), 0, Map.of(
            SecAggFlower.STAGE, Scalar.of(SecAggFlower.stageName(SecAggStage.MASKED_INPUT)),
            SecAggFlower.ACCUSED, Scalar.of((long) e.client().getAsInt()),
            SecAggFlower.ERROR, Scalar.of(e.reason() + ": " + e.getMessage())));
      }
      throw e;
    }
  }

  /** The config's {@code clipping_norm}, or NaN when it has none. */
  private static double clippingNorm(Map<String, Scalar> config) throws FlowerClientException {
    Scalar c = config.get("clipping_norm");
    if (c == null) {
      return Double.NaN;
    }
    double v = c.asDouble().orElse(Double.NaN);
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new FlowerClientException("clipping_norm must be positive and finite, got " + v);
    }
    return v;
  }

  /**
   * The weighted quantized update and the weight, as the round's input; with a clipping norm
   * (not NaN) the update is clipped to it and weighs 1.
   */
  private long[] input(List<Tensor> sent, FitRes trained, double clip)
      throws FlowerClientException {
    List<Tensor> got = trained.parameters();
    if (got.size() != sent.size()) {
      throw new FlowerClientException("the client returned " + got.size() + " tensors for "
          + sent.size());
    }
    long m = 0;
    for (int i = 0; i < sent.size(); i++) {
      if (!got.get(i).shape().equals(sent.get(i).shape())) {
        throw new FlowerClientException("tensor " + i + " came back as " + got.get(i).shape()
            + ", sent as " + sent.get(i).shape());
      }
      m += sent.get(i).size();
    }
    if (m >= Integer.MAX_VALUE) {
      throw new FlowerClientException("the model has " + m + " parameters, too many to mask");
    }
    double[] delta = new double[(int) m];
    int at = 0;
    for (int i = 0; i < sent.size(); i++) {
      Tensor a = sent.get(i);
      Tensor b = got.get(i);
      for (long j = 0; j < a.size(); j++) {
        delta[at++] = b.getAsDouble(j) - a.getAsDouble(j);
      }
    }
    for (int j = 0; j < delta.length; j++) {
      if (!Double.isFinite(delta[j])) {
        throw new FlowerClientException("update element " + j + " is not finite");
      }
    }
    long n = Math.min(trained.numExamples(), parameters.maxExamples());
    if (!Double.isNaN(clip)) {
      double norm = 0;
      for (double d : delta) {
        norm += d * d;
      }
      norm = Math.sqrt(norm);
      if (norm > clip) {
        for (int j = 0; j < delta.length; j++) {
          delta[j] *= clip / norm;
        }
      }
      n = 1;
    }
    long[] q = new Quantizer(parameters.clip(), parameters.bits(), Rounding.STOCHASTIC)
        .quantize(delta, random);
    long[] input = new long[q.length + 1];
    for (int j = 0; j < q.length; j++) {
      input[j] = n * q[j];
    }
    input[q.length] = n;
    return input;
  }

  private SecAggClient current() {
    if (client == null) {
      throw new IllegalArgumentException("no SecAgg+ round is under way: the server skipped "
          + "the advertise_keys stage, or this client's round failed");
    }
    return client;
  }

  private static <T extends SecAggMessage> T received(FitIns ins, Class<T> kind) {
    SecAggMessage m = SecAggWire.decode(SecAggFlower.bytesOf(ins.config(), SecAggFlower.MESSAGE));
    if (!kind.isInstance(m)) {
      throw new IllegalArgumentException("expected a " + kind.getSimpleName() + ", got a "
          + m.getClass().getSimpleName());
    }
    return kind.cast(m);
  }

  private static FitRes answer(SecAggStage stage, SecAggMessage m) {
    return new FitRes(List.of(), 0, Map.of(
        SecAggFlower.STAGE, Scalar.of(SecAggFlower.stageName(stage)),
        SecAggFlower.MESSAGE, new Scalar.Bytes(SecAggWire.encode(m))));
  }
}
