package io.tributary.runtime.executor.internal.aggregation;

import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.ValueChecker;
import io.tributary.runtime.executor.internal.federated.ClientNode;
import io.tributary.runtime.executor.internal.local.LocalEvaluator;
import io.tributary.runtime.executor.internal.local.LocalFn;
import io.tributary.runtime.executor.internal.local.LocalFunctionFailure;
import io.tributary.runtime.executor.internal.pass.PassCodec;
import java.util.List;
import java.util.Optional;

/**
 * {@code federated_aggregate}: each group of clients folds its values into a copy of the zero
 * with the accumulate function, the groups' results are merged in group order, and the report
 * function makes the final value. With the group size fixed by the number of clients alone, the
 * calls made never depend on the thread count.
 */
public final class AggregateSink implements Sink {
  private final ClientNode input;
  private final Type member;
  private final Object zero;
  private final LocalFn accumulate;
  private final LocalFn merge;
  private final LocalFn report;
  private final LocalEvaluator evaluator;

  private static final class Holder {
    Object value;

    Holder(Object value) {
      this.value = value;
    }
  }

  /**
   * {@code federated_aggregate} of {@code input}: {@code zero}, then {@code accumulate} per client,
   * {@code merge} of partials and {@code report} of the total, each run by {@code evaluator}.
   */
  public AggregateSink(ClientNode input, Object zero, LocalFn accumulate, LocalFn merge,
      LocalFn report, LocalEvaluator evaluator) {
    this.input = input;
    this.member = input.member();
    this.zero = zero;
    this.accumulate = accumulate;
    this.merge = merge;
    this.report = report;
    this.evaluator = evaluator;
  }

  @Override
  public String intrinsic() {
    return "federated_aggregate";
  }

  @Override
  public List<ClientNode> inputs() {
    return List.of(input);
  }

  @Override
  public Object newPartial() {
    return new Holder(zero);
  }

  @Override
  public Object prepare(Object partial, Object[] values) {
    Optional<String> bad = ValueChecker.problem(member, values[0], "");
    if (bad.isPresent()) {
      throw new IllegalArgumentException(bad.get());
    }
    return evaluator.apply(accumulate, StructValue.of(((Holder) partial).value, values[0]));
  }

  /** The accumulate function runs on the running value, so clients commit one by one. */
  @Override
  public boolean preparesFromPartial() {
    return true;
  }

  @Override
  public void commit(Object partial, Object prepared) {
    ((Holder) partial).value = prepared;
  }

  @Override
  public Object combine(Object total, Object partial) {
    if (total == null) {
      return partial;
    }
    Holder t = (Holder) total;
    try {
      t.value = evaluator.apply(merge, StructValue.of(t.value, ((Holder) partial).value));
    } catch (LocalFunctionFailure f) {
      throw new LocalComputationException("federated_aggregate: the merge function ("
          + f.operation() + ") failed: " + f.getMessage(), f.getCause());
    }
    return t;
  }

  @Override
  public void writePartial(Object partial, PassCodec.Out out) {
    PassCodec.writeValue(((Holder) partial).value, out);
  }

  @Override
  public Object readPartial(PassCodec.In in) {
    return new Holder(PassCodec.readValue(in, 0));
  }

  @Override
  public Object result(Object total) {
    Object merged = total == null ? zero : ((Holder) total).value;
    try {
      return evaluator.apply(report, merged);
    } catch (LocalFunctionFailure f) {
      throw new LocalComputationException("federated_aggregate: the report function ("
          + f.operation() + ") failed: " + f.getMessage(), f.getCause());
    }
  }
}
