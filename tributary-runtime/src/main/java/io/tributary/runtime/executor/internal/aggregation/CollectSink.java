package io.tributary.runtime.executor.internal.aggregation;

import io.tributary.core.types.Type;
import io.tributary.runtime.ValueChecker;
import io.tributary.runtime.executor.internal.federated.ClientNode;
import io.tributary.runtime.executor.internal.pass.PassCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Gathers every client's value of a {@code {T}@CLIENTS} result, in client order. This is the one
 * sink whose memory grows with the number of clients: the caller asked for all the values.
 */
public final class CollectSink implements Sink {
  private final ClientNode input;
  private final Type member;

  /** {@code federated_collect} of {@code input}: every client's value, in client order. */
  public CollectSink(ClientNode input) {
    this.input = input;
    this.member = input.member();
  }

  @Override
  public String intrinsic() {
    return "the {T}@CLIENTS result";
  }

  @Override
  public List<ClientNode> inputs() {
    return List.of(input);
  }

  @Override
  public Object newPartial() {
    return new ArrayList<Object>();
  }

  @Override
  public Object prepare(Object partial, Object[] values) {
    Optional<String> bad = ValueChecker.problem(member, values[0], "");
    if (bad.isPresent()) {
      throw new IllegalArgumentException(bad.get());
    }
    return values[0];
  }

  @Override
  @SuppressWarnings("unchecked")
  public void commit(Object partial, Object prepared) {
    ((List<Object>) partial).add(prepared);
  }

  @Override
  @SuppressWarnings("unchecked")
  public Object combine(Object total, Object partial) {
    List<Object> t = total == null ? new ArrayList<>() : (List<Object>) total;
    t.addAll((List<Object>) partial);
    return t;
  }

  @Override
  @SuppressWarnings("unchecked")
  public Object result(Object total) {
    return total == null ? List.of() : List.copyOf((List<Object>) total);
  }

  @Override
  public void writePartial(Object partial, PassCodec.Out out) {
    PassCodec.writeValue(partial, out);
  }

  @Override
  public Object readPartial(PassCodec.In in) {
    if (!(PassCodec.readValue(in, 0) instanceof List<?> l)) {
      throw in.bad("the partial of " + intrinsic() + " is not a list of values");
    }
    return new ArrayList<Object>(l);
  }
}
