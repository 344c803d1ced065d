package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.Scalar;
import io.tributary.flower.server.SecureFitProtocol;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The secure round of one fit invocation as the round computation sees it: the fit cohort is
 * not the sampled clients (the secure round talks to them itself, stage by stage) but stand-ins
 * whose updates carry the securely aggregated outcome, in one of two {@link Form}s.
 *
 * <p>The stand-ins exist because the round computation sums client values while SecAgg+ reveals
 * only the clients' sum: the sum is had outside the computation and fed back through them. The
 * client values of the stand-ins ({@link #values}) only number them; which invocation they
 * belong to is this object's, handed to the client work with the round ({@link FitRound}).
 */
public final class SecureCohort {
  /** How the outcome reaches the round computation. */
  public enum Form {
    /**
     * One stand-in whose update is the survivors' mean with their total examples: the
     * algorithm's weighted mean over it is the mean itself.
     */
    WHOLE,
    /**
     * One stand-in per sampled client (client-side differential privacy, whose aggregator sums
     * clipped updates): the first S (the survivors) each hold the survivors' mean clipped update
     * and the rest a zero update, so that the aggregator's sum is the sum of the S clipped
     * updates, each of norm at most C, and its noise is scaled as without SecAgg+.
     */
    SHARES
  }

  /** The client value of the {@link Form#WHOLE} stand-in. */
  public static final String WHOLE_ID = "secure-aggregation";
  /** The prefix of the client values of the {@link Form#SHARES} stand-ins, then the share. */
  public static final String SHARE_PREFIX = WHOLE_ID + "/";

  private final SecureFit round;
  private final List<RemoteClient> clients;
  private final Map<String, Scalar> config;
  private final Form form;
  // Guarded by this: the shares' outcome and the model it was had for.
  private StructValue sharedModel;
  private SecureFitProtocol.Outcome shared;

  /**
   * @param round runs the secure round
   * @param clients the sampled clients it runs over
   * @param config the round's fit config
   * @param form how the outcome reaches the round computation
   */
  public SecureCohort(SecureFit round, List<RemoteClient> clients, Map<String, Scalar> config,
      Form form) {
    this.round = Objects.requireNonNull(round, "round");
    this.clients = List.copyOf(clients);
    this.config = Map.copyOf(config);
    this.form = Objects.requireNonNull(form, "form");
  }

  /** The stand-ins' client values: one, or one per sampled client. */
  public List<Tensor> values() {
    if (form == Form.WHOLE) {
      return List.of(RemoteClientWork.clientValue(WHOLE_ID));
    }
    List<Tensor> out = new ArrayList<>(clients.size());
    for (int i = 0; i < clients.size(); i++) {
      out.add(RemoteClientWork.clientValue(SHARE_PREFIX + i));
    }
    return out;
  }

  /** The stand-ins as failure reasons name them. */
  public List<String> names() {
    int n = clients.size();
    if (form == Form.WHOLE) {
      return List.of("secure aggregation over " + n + " clients");
    }
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add("share " + i + " of the secure aggregation over " + n + " clients");
    }
    return out;
  }

  /**
   * The update of stand-in {@code id} for {@code model}: the whole secure round's outcome, or
   * this share of it (the secure round run once for all shares of a model).
   *
   * @throws SecureFitProtocol.Failed when the secure round fails
   * @throws IllegalStateException when {@code id} is none of this cohort's stand-ins
   */
  StructValue update(String id, StructValue model, FitResults results) {
    if (form == Form.WHOLE) {
      if (!id.equals(WHOLE_ID)) {
        throw new IllegalStateException("client " + id + " is not the secure round's stand-in");
      }
      SecureFitProtocol.Outcome o = round.run(clients, model, config);
      return results.aggregated(o.meanDelta(), o.examples());
    }
    int share = share(id);
    SecureFitProtocol.Outcome o = sharedOutcome(model);
    List<Tensor> delta = o.meanDelta();
    if (share >= o.survivors()) {
      List<Tensor> zeros = new ArrayList<>(delta.size());
      for (Tensor t : delta) {
        zeros.add(zero(t));
      }
      delta = zeros;
    }
    return results.aggregated(delta, 1);
  }

  private int share(String id) {
    if (id.startsWith(SHARE_PREFIX)) {
      try {
        int share = Integer.parseInt(id.substring(SHARE_PREFIX.length()));
        if (share >= 0 && share < clients.size()) {
          return share;
        }
      } catch (NumberFormatException e) {
        // Refused below.
      }
    }
    throw new IllegalStateException("client " + id + " is not a share of the secure round over "
        + clients.size() + " clients");
  }

  /** The secure outcome for {@code model}, had by the first share that asks for it. */
  private synchronized SecureFitProtocol.Outcome sharedOutcome(StructValue model) {
    if (sharedModel != model) {
      sharedModel = model;
      shared = null;
      shared = round.run(clients, model, config);
    } else if (shared == null) {
      throw new SecureFitProtocol.Failed("the secure round failed for an earlier share", null);
    }
    return shared;
  }

  /** A zero of {@code t}'s dtype and shape. */
  private static Tensor zero(Tensor t) {
    return TensorMath.fromDoubles(t.dtype(), t.shape(), new double[(int) t.size()]);
  }
}
