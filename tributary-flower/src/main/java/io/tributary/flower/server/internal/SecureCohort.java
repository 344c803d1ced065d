package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.server.SecureFitProtocol;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;
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
  private final Form form;
  // Guarded by this: the shares' outcome and the model it was had for.
  private StructValue sharedModel;
  private SecureFitProtocol.Outcome shared;

  /**
   * @param round runs the secure round
   * @param form how the outcome reaches the round computation
   */
  public SecureCohort(SecureFit round, Form form) {
    this.round = Objects.requireNonNull(round, "round");
    this.form = Objects.requireNonNull(form, "form");
  }

  /** The secure round, whose exclusions say which clients it left out. */
  public SecureFit round() {
    return round;
  }

  /** The stand-ins' client values for {@code n} sampled clients: one, or one per client. */
  public List<Tensor> values(int n) {
    if (form == Form.WHOLE) {
      return List.of(RemoteClientWork.clientValue(WHOLE_ID));
    }
    List<Tensor> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(RemoteClientWork.clientValue(SHARE_PREFIX + i));
    }
    return out;
  }

  /** The stand-ins for {@code n} sampled clients as failure reasons name them. */
  public List<String> names(int n) {
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
   * The update of stand-in {@code id} for {@code model} in {@code fit}'s round: the whole secure
   * round's outcome, or this share of it (the secure round run once for all shares of a model).
   *
   * @throws SecureFitProtocol.Failed when the secure round fails
   * @throws IllegalStateException when {@code id} is none of this cohort's stand-ins
   */
  StructValue update(FitRound fit, String id, StructValue model, FitResults results) {
    if (form == Form.WHOLE) {
      if (!id.equals(WHOLE_ID)) {
        throw new IllegalStateException("client " + id + " is not the secure round's stand-in");
      }
      SecureFitProtocol.Outcome o = round.run(fit, model);
      return results.aggregated(o.meanDelta(), o.examples());
    }
    int share = share(id, fit.clients().size());
    SecureFitProtocol.Outcome o = sharedOutcome(fit, model);
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

  private static int share(String id, int clients) {
    if (id.startsWith(SHARE_PREFIX)) {
      try {
        int share = Integer.parseInt(id.substring(SHARE_PREFIX.length()));
        if (share >= 0 && share < clients) {
          return share;
        }
      } catch (NumberFormatException e) {
        // Refused below.
      }
    }
    throw new IllegalStateException("client " + id + " is not a share of the secure round over "
        + clients + " clients");
  }

  /** The secure outcome for {@code model}, had by the first share that asks for it. */
  private synchronized SecureFitProtocol.Outcome sharedOutcome(FitRound fit,
      StructValue model) {
    if (sharedModel != model) {
      sharedModel = model;
      shared = null;
      shared = round.run(fit, model);
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
