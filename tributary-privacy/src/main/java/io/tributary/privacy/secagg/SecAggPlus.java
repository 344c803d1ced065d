package io.tributary.privacy.secagg;

import io.tributary.privacy.secagg.SecAggException.Reason;
import io.tributary.privacy.secagg.SecAggMessage.AdvertiseKeys;
import io.tributary.privacy.secagg.SecAggMessage.EncryptedShares;
import io.tributary.privacy.secagg.SecAggMessage.KeyDirectory;
import io.tributary.privacy.secagg.SecAggMessage.MaskedInput;
import io.tributary.privacy.secagg.SecAggMessage.ShareKeys;
import io.tributary.privacy.secagg.SecAggMessage.UnmaskRequest;
import io.tributary.privacy.secagg.SecAggMessage.UnmaskShares;
import io.tributary.runtime.SecureSumClient;
import io.tributary.runtime.SecureSumRequest;
import io.tributary.runtime.SecureSumSpec;
import io.tributary.runtime.SecureSummation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Runs whole SecAgg+ rounds among in-memory clients: {@link #sum} for integer vectors,
 * {@link #sumFloats} for floating updates (quantized first), and {@link #secureSummation} to
 * compute the runtime's {@code federated_secure_sum} and {@code federated_secure_sum_bitwidth}.
 *
 * <p>Each stage, the present clients answer the server's messages, the server collects them and
 * replies; a {@link Dropouts} schedule removes clients before a stage. The server sees only what
 * {@link SecAggTranscript} records.
 */
public final class SecAggPlus {
  private SecAggPlus() {}

  /**
   * The sum of {@code inputs}, computed by a SecAgg+ round in which nobody drops out.
   *
   * @throws SecAggException when the round fails
   */
  public static SecAggResult sum(SecAggSettings settings, List<long[]> inputs) {
    return sum(settings, inputs, Dropouts.none());
  }

  /**
   * The sum of the inputs of the clients that stay until their masked input is sent, computed
   * by a SecAgg+ round among {@code inputs.size()} clients (client {@code i} holds
   * {@code inputs.get(i)}).
   *
   * @param settings the round's settings, adapted to the number of clients with
   *     {@link SecAggSettings#forClients}
   * @param inputs one vector per client, all of the same length, every element in
   *     {@code [0, 2^inputBits)}
   * @param dropouts which clients drop out before which stage
   * @throws SecAggException when the round fails (too few survivors, an input out of range); it
   *     carries the server's transcript, which then holds no sum
   */
  public static SecAggResult sum(SecAggSettings settings, List<long[]> inputs,
      Dropouts dropouts) {
    Objects.requireNonNull(dropouts, "dropouts");
    int n = inputs.size();
    if (n < 2) {
      throw new SecAggException(Reason.TOO_FEW_CLIENTS, "secure aggregation needs at least 2 "
          + "clients, got " + n);
    }
    int length = inputs.get(0).length;
    for (int i = 0; i < n; i++) {
      if (inputs.get(i).length != length) {
        throw new IllegalArgumentException("client " + i + " has " + inputs.get(i).length
            + " elements, client 0 " + length);
      }
    }
    SecAggSettings s = settings.forClients(n);
    List<SecAggClient> clients = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      clients.add(new SecAggClient(i, n, s));
    }
    SecAggServer server = new SecAggServer(n, length, s);
    try {
      List<AdvertiseKeys> adverts = new ArrayList<>();
      for (SecAggClient c : present(clients, dropouts, SecAggStage.ADVERTISE_KEYS)) {
        adverts.add(c.advertiseKeys());
      }
      Map<Integer, KeyDirectory> directories = server.collectKeys(adverts);

      List<ShareKeys> shares = new ArrayList<>();
      for (SecAggClient c : present(clients, dropouts, SecAggStage.SHARE_KEYS)) {
        if (directories.containsKey(c.id())) {
          shares.add(c.shareKeys(directories.get(c.id())));
        }
      }
      Map<Integer, EncryptedShares> routed = server.collectShares(shares);

      List<MaskedInput> maskedInputs = new ArrayList<>();
      for (SecAggClient c : present(clients, dropouts, SecAggStage.MASKED_INPUT)) {
        if (routed.containsKey(c.id())) {
          maskedInputs.add(c.maskedInput(routed.get(c.id()), inputs.get(c.id())));
        }
      }
      Map<Integer, UnmaskRequest> requests = server.collectMaskedInputs(maskedInputs);

      List<UnmaskShares> responses = new ArrayList<>();
      for (SecAggClient c : present(clients, dropouts, SecAggStage.UNMASK)) {
        if (requests.containsKey(c.id())) {
          responses.add(c.unmask(requests.get(c.id())));
        }
      }
      long[] sum = server.collectUnmaskShares(responses);
      return new SecAggResult(sum, List.copyOf(requests.keySet()), server.modulusBits(),
          server.transcript());
    } catch (SecAggException e) {
      throw e.withTranscript(server.transcript());
    }
  }

  /**
   * The sum of the floating updates of the clients that stay until their masked input is sent:
   * each client clips and quantizes its update ({@link Quantizer#of} the settings, with rounding
   * randomness from the settings' generator for that client), the round sums the integers, and
   * the sum is mapped back.
   *
   * @throws SecAggException when the round fails
   */
  public static SecAggFloatResult sumFloats(SecAggSettings settings, List<double[]> updates,
      Dropouts dropouts) {
    Quantizer q = Quantizer.of(settings);
    List<long[]> inputs = new ArrayList<>();
    for (int i = 0; i < updates.size(); i++) {
      inputs.add(q.quantize(updates.get(i), settings.randomness().generator("rounding", i)));
    }
    SecAggResult r = sum(settings.withInputBits(q.bits()), inputs, dropouts);
    return new SecAggFloatResult(q.dequantize(r.sum(), r.contributors().size()),
        r.contributors(), r.transcript());
  }

  /**
   * A {@link SecureSummation} for {@code RuntimeOptions.withSecureSum} that runs a SecAgg+ round
   * among the contributing clients for every secure sum, with the neighbours, threshold, graph
   * seed and randomness of {@code settings} (adapted to the number of clients) and the input
   * width and modulus the request needs, so that the sum is exact.
   */
  public static SecureSummation secureSummation(SecAggSettings settings) {
    return secureSummation(settings, t -> { });
  }

  /**
   * Like {@link #secureSummation(SecAggSettings)}, handing every successful round's transcript to
   * {@code observer} (for tests and audits: what the server saw).
   */
  public static SecureSummation secureSummation(SecAggSettings settings,
      Consumer<SecAggTranscript> observer) {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(observer, "observer");
    return request -> {
      SecAggResult r = sum(settingsFor(settings, request), request.inputs(), Dropouts.none());
      observer.accept(r.transcript());
      return r.sum();
    };
  }

  /**
   * The settings of a round that computes a pass's secure sums where the clients are
   * ({@link SecureSumSpec}), the same on the server and on every node: {@code settings} with the
   * input width the spec's largest element needs, adapted to the pass's clients, so that the
   * modulus ({@code inputBits + ceil(log2 clients)} bits) holds the exact sum of any survivors.
   *
   * @throws IllegalArgumentException for a pass of fewer than 2 clients
   */
  public static SecAggSettings settingsFor(SecAggSettings settings, SecureSumSpec spec) {
    long largest = spec.maxElement();
    int bits = Math.max(1, 64 - Long.numberOfLeadingZeros(largest));
    return settings.withInputBits(Math.min(63, bits)).forClients(spec.clients());
  }

  /**
   * The runtime's client side of a pass's secure sums on a node
   * ({@code ExecutionContext.computeClientPart}): {@code client}, which has shared its keys in
   * a round of {@link #settingsFor} settings, masks the client's input with the shares the
   * server routed to it and returns the masked input as {@link SecAggWire} bytes.
   */
  public static SecureSumClient secureSumClient(SecAggClient client,
      SecAggMessage.EncryptedShares shares) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(shares, "shares");
    return input -> SecAggWire.encode(client.maskedInput(shares, input.values()));
  }

  private static SecAggSettings settingsFor(SecAggSettings settings, SecureSumRequest request) {
    long[] max = request.maxInput();
    long largest = 0;
    for (int c = 0; c < request.inputs().size(); c++) {
      long[] x = request.inputs().get(c);
      for (int i = 0; i < x.length; i++) {
        if (x[i] < 0 || x[i] > max[i]) {
          throw new SecAggException(Reason.INPUT_OUT_OF_RANGE, c, request.intrinsic()
              + ": client " + c + "'s element " + i + " is " + x[i] + ", outside [0, " + max[i]
              + "]");
        }
      }
    }
    for (long m : max) {
      largest = Math.max(largest, m);
    }
    int bits = Math.max(1, 64 - Long.numberOfLeadingZeros(largest));
    return settings.withInputBits(Math.min(63, bits));
  }

  private static List<SecAggClient> present(List<SecAggClient> clients, Dropouts dropouts,
      SecAggStage stage) {
    return clients.stream().filter(c -> dropouts.present(c.id(), stage)).toList();
  }
}
