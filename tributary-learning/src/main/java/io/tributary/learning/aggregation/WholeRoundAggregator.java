package io.tributary.learning.aggregation;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.SequenceType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.learning.ModelLeaves;
import io.tributary.tensor.DType;
import io.tributary.tensor.Finite;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * An aggregator that needs every update of the round at once (a median, Krum): implement
 * {@link #aggregate}, or give it as a lambda to {@link #of}, and the federated computation is
 * made for you.
 *
 * <p>The computation is a {@code federated_aggregate} whose accumulator is the sequence of the
 * round's {@code <M,int64>} (update, examples) in cohort order, and whose report calls {@link
 * #aggregate}. Memory: every update of the round is held at once, n x the model's size, on top of
 * whatever {@link #aggregate} needs (Krum and Bulyan an n x n distance matrix).
 */
public interface WholeRoundAggregator extends Aggregator {
  /**
   * The aggregated update of the round's updates.
   *
   * @throws InsufficientUpdatesException when there are fewer updates than the rule needs
   * @throws IllegalArgumentException when the updates cannot be aggregated
   */
  List<Tensor> aggregate(ClientUpdates updates);

  /**
   * The whole-round aggregator named {@code name} whose {@link #aggregate} is {@code rule}, so
   * that a rule of one's own is one lambda: {@code WholeRoundAggregator.of("first", u ->
   * u.client(0))}.
   *
   * @param name the aggregator's name, which also names its report computation, so letters,
   *     digits and {@code _}, not starting with a digit ({@link #create} refuses others)
   * @param rule the aggregated update of the round's updates, as {@link #aggregate} gives it
   */
  static WholeRoundAggregator of(String name, Function<ClientUpdates, List<Tensor>> rule) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(rule, "rule");
    return new WholeRoundAggregator() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public List<Tensor> aggregate(ClientUpdates updates) {
        return rule.apply(updates);
      }

      @Override
      public String toString() {
        return "WholeRoundAggregator.of(" + name + ")";
      }
    };
  }

  /**
   * Refuses one client's {@code <update,examples>} that no rule can use, so that the runtime
   * counts it as that client's failure (within the run's tolerance) instead of failing the round.
   */
  private static void checkUsable(StructValue item) {
    List<Tensor> layers = ModelLeaves.of(item.get(0));
    for (int l = 0; l < layers.size(); l++) {
      long bad = Finite.firstNonFinite(layers.get(l));
      if (bad >= 0) {
        throw new IllegalArgumentException("update layer " + l + " element " + bad
            + " is not finite");
      }
    }
    long examples = item.tensor(1).longItem();
    if (examples < 0) {
      throw new IllegalArgumentException("the update reports " + examples + " examples");
    }
  }

  @Override
  default AggregationProcess create(StructType model) {
    Type item = StructType.of(model, TensorType.of(DType.INT64));
    SequenceType all = new SequenceType(item);
    Computation empty = Federated.local("no_updates", FunctionType.noParameter(all),
        x -> List.of());
    Computation accumulate = Federated.local("append_update",
        FunctionType.of(StructType.of(all, item), all), x -> {
          StructValue a = (StructValue) x;
          checkUsable((StructValue) a.get(1));
          List<Object> out = new ArrayList<>((List<?>) a.get(0));
          out.add(a.get(1));
          return out;
        });
    Computation merge = Federated.local("concat_updates",
        FunctionType.of(StructType.of(all, all), all), x -> {
          StructValue a = (StructValue) x;
          List<Object> out = new ArrayList<>((List<?>) a.get(0));
          out.addAll((List<?>) a.get(1));
          return out;
        });
    Computation report = Federated.local(name(), FunctionType.of(all, model), x -> {
      List<?> items = (List<?>) x;
      List<List<Tensor>> updates = new ArrayList<>(items.size());
      long[] examples = new long[items.size()];
      for (int i = 0; i < items.size(); i++) {
        StructValue s = (StructValue) items.get(i);
        updates.add(ModelLeaves.of(s.get(0)));
        examples[i] = s.tensor(1).longItem();
      }
      return ModelLeaves.rebuild(model, aggregate(new ClientUpdates(updates, examples)));
    });
    return AggregationProcess.stateless(Federated.computation(
        new FederatedType(model, Placement.CLIENTS, false),
        new FederatedType(TensorType.of(DType.INT64), Placement.CLIENTS, false),
        (updates, weights) -> Intrinsics.federatedAggregate(
            Federated.struct(updates, weights), empty.call(), accumulate, merge, report)));
  }
}
