package io.tributary.flower.secagg;

import io.tributary.flower.passes.PassNodes;
import io.tributary.flower.passes.SecurePassMessages;
import io.tributary.flower.passes.SecurePassNode;
import io.tributary.flower.passes.SecurePassProtocol;
import io.tributary.flower.passes.SecurePassReplyException;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.privacy.secagg.Rounding;
import io.tributary.privacy.secagg.SecAggException;
import io.tributary.privacy.secagg.SecAggMessage;
import io.tributary.privacy.secagg.SecAggPlus;
import io.tributary.privacy.secagg.SecAggRandomness;
import io.tributary.privacy.secagg.SecAggServer;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.privacy.secagg.SecAggWire;
import io.tributary.runtime.PassPart;
import io.tributary.runtime.PassRequest;
import io.tributary.runtime.SecurePass;
import io.tributary.runtime.SecureSumSpec;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * SecAgg+ as the protocol of a server's secure passes ({@link SecurePassProtocol}): one round per
 * pass over the pass's secure sums as one vector ({@link SecAggPlus#settingsFor}), its four
 * stages Fleet messages to the nodes, which run {@link SecAggPassNode}. The node computes its
 * client in the third stage, masking the client's secure-sum input; the server unmasks the
 * survivors' sum only. A node that leaves or times out drops out of the round (its part, if it
 * sent none, is missing and the runtime counts its client as dropped out); a reply whose
 * message cannot be read, is of the wrong kind or names another client fails the pass with a
 * {@link SecurePassReplyException} naming the node, and one the protocol refuses (a masked input
 * of the wrong length, say) with the {@link SecAggException} naming the node.
 */
public final class SecAggPasses implements SecurePassProtocol {
  private final Supplier<Long> seeds;

  /** SecAgg+ with a fresh graph seed per pass from a {@link SecureRandom}. */
  public SecAggPasses() {
    SecureRandom random = new SecureRandom();
    this.seeds = random::nextLong;
  }

  @Override
  public String name() {
    return "SecAgg+";
  }

  @Override
  public SecurePassNode node() {
    return new SecAggPassNode();
  }

  @Override
  public SecurePass run(PassRequest request, SecureSumSpec spec, SecureAggregation settings,
      PassNodes nodes) {
    int n = spec.clients();
    if (n < 2) {
      throw new SecAggException(SecAggException.Reason.TOO_FEW_CLIENTS, "pass "
          + request.pass() + " has " + n + " client(s): the sum of one input is that input");
    }
    SecAggSettings s = SecAggPlus.settingsFor(new SecAggSettings(settings.neighbours(),
        settings.threshold(), 1, 1.0, Rounding.STOCHASTIC, seeds.get(),
        SecAggRandomness.secure()), spec);
    long session = s.graphSeed();
    SecAggServer server = new SecAggServer(n, spec.length(), s);

    Map<Integer, Map<String, Object>> out = new LinkedHashMap<>();
    for (int c = 0; c < n; c++) {
      out.put(c, SecAggPassWire.advertise(c, n, s));
    }
    Map<Integer, PassNodes.Reply> adverts = nodes.exchange(SecAggPassWire.ADVERTISE, out,
        false);
    var directories = named(nodes, () -> server.collectKeys(read(nodes, adverts,
        SecAggPassWire.ADVERTISE, SecAggMessage.AdvertiseKeys.class)));

    Map<Integer, PassNodes.Reply> shared = nodes.exchange(SecAggPassWire.SHARE,
        messages(SecAggPassWire.SHARE, session, directories), false);
    var routed = named(nodes, () -> server.collectShares(read(nodes, shared,
        SecAggPassWire.SHARE,
        SecAggMessage.ShareKeys.class)));

    Map<Integer, PassNodes.Reply> masked = nodes.exchange(SecAggPassWire.MASK,
        messages(SecAggPassWire.MASK, session, routed), true);
    List<PassPart> parts = new ArrayList<>();
    masked.values().forEach(r -> parts.add(r.part().orElseThrow()));
    // A client that failed in its work sends no masked input: its part holds the failure.
    Map<Integer, PassNodes.Reply> inputs = new LinkedHashMap<>();
    masked.forEach((c, r) -> {
      if (r.values().containsKey(SecAggFlower.MESSAGE)) {
        inputs.put(c, r);
      }
    });
    var asks = named(nodes, () -> server.collectMaskedInputs(read(nodes, inputs,
        SecAggPassWire.MASK, SecAggMessage.MaskedInput.class)));

    Map<Integer, PassNodes.Reply> shares = nodes.exchange(SecAggPassWire.UNMASK,
        messages(SecAggPassWire.UNMASK, session, asks), false);
    long[] sum = named(nodes, () -> server.collectUnmaskShares(read(nodes, shares,
        SecAggPassWire.UNMASK, SecAggMessage.UnmaskShares.class)));
    return new SecurePass(parts, sum, asks.keySet().stream().mapToInt(Integer::intValue)
        .sorted().toArray());
  }

  /** Each client's stage entries carrying its message of {@code messages}. */
  private static Map<Integer, Map<String, Object>> messages(String stage, long session,
      Map<Integer, ? extends SecAggMessage> messages) {
    Map<Integer, Map<String, Object>> out = new LinkedHashMap<>();
    messages.forEach((c, m) -> out.put(c, SecAggPassWire.stage(stage, session,
        SecAggWire.encode(m))));
    return out;
  }

  /**
   * The {@code kind} messages the replies carry, each checked to be its sender's.
   *
   * @throws SecurePassReplyException naming the node whose reply cannot be read
   */
  private static <T extends SecAggMessage> List<T> read(PassNodes nodes,
      Map<Integer, PassNodes.Reply> replies, String stage, Class<T> kind) {
    List<T> out = new ArrayList<>();
    replies.forEach((c, r) -> {
      String node = nodes.node(c);
      SecAggMessage m;
      try {
        m = SecAggWire.decode(SecurePassMessages.bytesOf(r.values(), SecAggFlower.MESSAGE));
      } catch (IllegalArgumentException | SecAggException e) {
        throw new SecurePassReplyException(node, stage, e.getMessage(), e);
      }
      if (!kind.isInstance(m)) {
        throw new SecurePassReplyException(node, stage, "a " + m.getClass().getSimpleName()
            + ", not a " + kind.getSimpleName(), null);
      }
      if (m.client() != c) {
        throw new SecurePassReplyException(node, stage, "the message names client "
            + m.client() + ", the node is client " + c, null);
      }
      out.add(kind.cast(m));
    });
    return out;
  }

  /** {@code step}'s result; a refusal that names a client names its node too. */
  private static <T> T named(PassNodes nodes, Supplier<T> step) {
    try {
      return step.get();
    } catch (SecAggException e) {
      if (e.client().isPresent() && e.client().getAsInt() >= 0
          && e.client().getAsInt() < nodes.clients()) {
        int c = e.client().getAsInt();
        throw new SecAggException(e.reason(), c, nodes.node(c) + " (client " + c + "): "
            + e.getMessage(), e);
      }
      throw e;
    }
  }
}
