package io.tributary.flower.secagg;

import io.tributary.flower.app.Context;
import io.tributary.flower.passes.ClientReplay;
import io.tributary.flower.passes.NodeComputationException;
import io.tributary.flower.passes.SecurePassMessages;
import io.tributary.flower.passes.SecurePassNode;
import io.tributary.privacy.secagg.SecAggClient;
import io.tributary.privacy.secagg.SecAggMessage;
import io.tributary.privacy.secagg.SecAggPlus;
import io.tributary.privacy.secagg.SecAggWire;
import io.tributary.runtime.ClientPassPart;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A node's side of SecAgg+ in a secure pass ({@link SecAggPasses}): draws its keys, shares its
 * secrets, computes its client with {@link SecAggPlus#secureSumClient} as the runtime's client
 * side (so the client's secure-sum input leaves the node masked only) and reveals the shares
 * that unmask the survivors' sum. A node serves it through {@code NodePasses}:
 *
 * <pre>{@code
 * ClientApp served = NodePasses.of(nodeComputation, new SecAggPassNode()).serve(app);
 * }</pre>
 *
 * <p>The round's client lives from its first stage to its last, keyed by the pass's session; a
 * node keeps at most {@value #MAX_SESSIONS} (a server that abandons passes cannot make it hold
 * more).
 */
public final class SecAggPassNode implements SecurePassNode {
  /** The most passes a node holds a SecAgg+ client for at once. */
  static final int MAX_SESSIONS = 8;

  private final Map<Long, SecAggClient> sessions = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, SecAggClient> eldest) {
      return size() > MAX_SESSIONS;
    }
  };

  @Override
  public synchronized Map<String, Object> stage(Map<String, Object> values,
      Optional<ClientReplay> replay, Context context) throws NodeComputationException {
    if (!(values.get(SecAggFlower.STAGE) instanceof String stage)) {
      throw new IllegalArgumentException(SecAggFlower.STAGE + " must be a string");
    }
    long session = SecurePassMessages.longOf(values, SecAggFlower.GRAPH_SEED);
    if (stage.equals(SecAggPassWire.ADVERTISE)) {
      SecAggPassWire.Round r = SecAggPassWire.round(values);
      SecAggClient client = new SecAggClient(r.client(), r.clients(), r.settings());
      sessions.put(session, client);
      return SecAggPassWire.stage(stage, session, SecAggWire.encode(client.advertiseKeys()));
    }
    SecAggClient client = sessions.get(session);
    if (client == null) {
      throw new IllegalArgumentException("no SecAgg+ round of session " + session
          + " is under way here (stage " + stage + ")");
    }
    SecAggMessage m = SecAggWire.decode(SecurePassMessages.bytesOf(values,
        SecAggFlower.MESSAGE));
    switch (stage) {
      case SecAggPassWire.SHARE -> {
        return SecAggPassWire.stage(stage, session, SecAggWire.encode(client.shareKeys(
            expect(m, SecAggMessage.KeyDirectory.class, stage))));
      }
      case SecAggPassWire.MASK -> {
        ClientReplay r = replay.orElseThrow(() -> new IllegalArgumentException("stage " + stage
            + " carries no pass"));
        ClientPassPart part = r.compute(SecAggPlus.secureSumClient(client,
            expect(m, SecAggMessage.EncryptedShares.class, stage)));
        // A client that failed in its work sends nothing: it drops out of the sum.
        return SecAggPassWire.stage(stage, session, part.sent().orElse(null));
      }
      case SecAggPassWire.UNMASK -> {
        byte[] shares = SecAggWire.encode(client.unmask(expect(m,
            SecAggMessage.UnmaskRequest.class, stage)));
        sessions.remove(session);
        return SecAggPassWire.stage(stage, session, shares);
      }
      default -> throw new IllegalArgumentException("no SecAgg+ pass stage is called '"
          + stage + "'");
    }
  }

  private static <T extends SecAggMessage> T expect(SecAggMessage m, Class<T> kind,
      String stage) {
    if (!kind.isInstance(m)) {
      throw new IllegalArgumentException("stage " + stage + " carries a "
          + m.getClass().getSimpleName() + ", not a " + kind.getSimpleName());
    }
    return kind.cast(m);
  }
}
