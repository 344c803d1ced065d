package io.tributary.flower.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.values.StructValue;
import io.tributary.flower.Scalar;
import io.tributary.flower.server.SecureFitProtocol;
import io.tributary.learning.aggregation.ClientSignals;
import io.tributary.learning.rounds.RoundProgress;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A secure round's stand-ins in the round computation, and the per-round context. */
class SecureCohortTest {
  private static final ModelSpec SPEC = ModelSpec.of(List.of(Tensor.ofFloats(Shape.of(2), 0, 0)));
  private static final FitResults RESULTS =
      new FitResults(new ParameterCodec(null, SPEC), ClientSignals.DEFAULT, 1000);

  /** A secure round that counts its runs and answers a fixed outcome, or fails. */
  private static final class CountingRound extends SecureFitRounds {
    final List<Map<String, Scalar>> configs = new ArrayList<>();
    boolean fail;

    @Override
    public String name() {
      return "counting";
    }

    @Override
    public int exchanges() {
      return 1;
    }

    @Override
    public SecureFitProtocol.Outcome run(FitRound fit, StructValue model) {
      begin(fit);
      configs.add(fit.config());
      if (fail) {
        throw new SecureFitProtocol.Failed("too few clients", null);
      }
      return new SecureFitProtocol.Outcome(List.of(Tensor.ofFloats(Shape.of(2), 2, 4)), 10, 2);
    }
  }

  @Test
  void update_shares_survivorsHoldTheMeanOthersZeroOneRunPerModel() {
    CountingRound round = new CountingRound();
    SecureCohort cohort = new SecureCohort(round, SecureCohort.Form.SHARES);
    FitRound fit = fit(3, Map.of("k", Scalar.of(1L)), cohort);
    StructValue model = SPEC.value(List.of(Tensor.ofFloats(Shape.of(2), 0, 0)));

    assertThat(fit.cohort()).extracting(t -> t.getString(0))
        .containsExactly("secure-aggregation/0", "secure-aggregation/1", "secure-aggregation/2");
    StructValue first = cohort.update(fit, "secure-aggregation/0", model, RESULTS);
    StructValue last = cohort.update(fit, "secure-aggregation/2", model, RESULTS);

    assertThat(delta(first)).containsExactly(2f, 4f);
    assertThat(first.tensor("num_examples").getLong(0)).isEqualTo(1);
    assertThat(delta(last)).containsExactly(0f, 0f);
    assertThat(round.configs).hasSize(1).first().isEqualTo(Map.of("k", Scalar.of(1L)));
    cohort.update(fit, "secure-aggregation/1", SPEC.value(List.of(Tensor.ofFloats(Shape.of(2), 1, 1))),
        RESULTS);
    assertThat(round.configs).hasSize(2);
  }

  @Test
  void update_sharesAfterAFailedRound_failWithoutRunningAgain() {
    CountingRound round = new CountingRound();
    round.fail = true;
    SecureCohort cohort = new SecureCohort(round, SecureCohort.Form.SHARES);
    FitRound fit = fit(2, Map.of(), cohort);
    StructValue model = SPEC.value(List.of(Tensor.ofFloats(Shape.of(2), 0, 0)));

    assertThatThrownBy(() -> cohort.update(fit, "secure-aggregation/0", model, RESULTS))
        .isInstanceOf(SecureFitProtocol.Failed.class).hasMessageContaining("too few");
    assertThatThrownBy(() -> cohort.update(fit, "secure-aggregation/1", model, RESULTS))
        .isInstanceOf(SecureFitProtocol.Failed.class).hasMessageContaining("earlier share");
    assertThat(round.configs).hasSize(1);
  }

  @Test
  void update_whole_isTheMeanWithTheSurvivorsExamples() {
    SecureCohort cohort = new SecureCohort(new CountingRound(), SecureCohort.Form.WHOLE);
    FitRound fit = fit(3, Map.of(), cohort);

    StructValue u = cohort.update(fit, "secure-aggregation", SPEC.value(List.of(
        Tensor.ofFloats(Shape.of(2), 0, 0))), RESULTS);

    assertThat(fit.cohort()).hasSize(1);
    assertThat(delta(u)).containsExactly(2f, 4f);
    assertThat(u.tensor("num_examples").getLong(0)).isEqualTo(10);
    assertThat(u.tensor("loss_weight").getFloat(0)).isZero();
  }

  @Test
  void update_idOfNoStandIn_refused() {
    SecureCohort shares = new SecureCohort(new CountingRound(), SecureCohort.Form.SHARES);
    SecureCohort whole = new SecureCohort(new CountingRound(), SecureCohort.Form.WHOLE);
    FitRound fit = fit(2, Map.of(), shares);
    StructValue model = SPEC.value(List.of(Tensor.ofFloats(Shape.of(2), 0, 0)));

    assertThatThrownBy(() -> shares.update(fit, "secure-aggregation/2", model, RESULTS))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("not a share");
    assertThatThrownBy(() -> shares.update(fit, "client-a", model, RESULTS))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("not a share");
    assertThatThrownBy(() -> whole.update(fit, "secure-aggregation/0", model, RESULTS))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("stand-in");
  }

  @Test
  void fit_outsideAnOpenInvocation_refusedAndASecondOpenRefused() {
    RemoteClientWork work = new RemoteClientWork(new ClientManager(),
        new ParameterCodec(null, SPEC), Optional.empty(), 1000, ClientSignals.DEFAULT);
    StructValue arg = StructValue.named("model", SPEC.value(List.of(Tensor.ofFloats(Shape.of(2),
        0, 0))), "data", RemoteClientWork.clientValue("secure-aggregation"));

    assertThatThrownBy(() -> ((JavaFunction) work.fit().block()).body().apply(arg))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("open invocation");
    FitRound round = fit(2, Map.of(), new SecureCohort(new CountingRound(),
        SecureCohort.Form.WHOLE));
    try (RemoteClientWork.Invocation unused = work.open(round, true)) {
      assertThat(round.cohort()).extracting(t -> t.getString(0))
          .containsExactly("secure-aggregation");
      assertThatThrownBy(() -> work.open(round, true)).isInstanceOf(IllegalStateException.class);
    }
    try (RemoteClientWork.Invocation unused = work.open(round, true)) {
      assertThat(round.clients()).hasSize(2);
    }
  }

  private static FitRound fit(int clients, Map<String, Scalar> config, SecureCohort cohort) {
    return new FitRound(1, clients(clients), config, Long.MAX_VALUE, RoundProgress.NONE,
        Optional.of(cohort));
  }

  private static float[] delta(StructValue update) {
    Tensor t = (Tensor) update.struct("delta").get(0);
    return new float[] {t.getFloat(0), t.getFloat(1)};
  }

  private static List<RemoteClient> clients(int n) {
    List<RemoteClient> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = "c" + i;
      out.add(new InertClient(id));
    }
    return out;
  }
}
