package io.tributary.runtime.executor.internal.federated;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Types;
import io.tributary.runtime.ClientObserver;
import io.tributary.runtime.ClientValues;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.executor.internal.aggregation.CollectSink;
import io.tributary.runtime.executor.internal.aggregation.LinearSink;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import io.tributary.runtime.executor.internal.local.LocalEvaluator;
import io.tributary.runtime.executor.internal.local.LocalFn;
import io.tributary.runtime.executor.internal.pass.ClientPass;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pass whose sinks only add the clients' values discards the deferred tensors a client's work
 * made once they are added (their arrays come back unread, never made), with the bits of the
 * made values; a pass with a sink that keeps values leaves them to be read, and a caller's own
 * values are never discarded.
 */
class ClientPassDiscardTest {
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private final ExecutorService runner = Executors.newCachedThreadPool();
  /** What each made tensor's loan was told, in order. */
  private final List<Boolean> returns = new ArrayList<>();
  /** The tensors the clients' work made. */
  private final List<Tensor> made = new ArrayList<>();

  @AfterEach
  void stop() {
    pool.shutdownNow();
    runner.shutdownNow();
  }

  private ClientPass.PassSettings settings() {
    return new ClientPass.PassSettings(2, pool, runner, Optional.empty(), 1.0,
        new LocalEvaluator(Map.of()), 0, ClientObserver.NONE);
  }

  private static List<Object> indices(int clients) {
    List<Object> ks = new ArrayList<>();
    for (int k = 0; k < clients; k++) {
      ks.add(Tensor.ofInts(Shape.scalar(), k));
    }
    return ks;
  }

  /** Client k's work: {@code [k + 0.1, -k] - [0.05, 0.5]}, a deferred difference. */
  private ClientNode deltas(int clients) {
    ClientNode k = new ClientNode.Argument(Types.parse("{int32}@CLIENTS"),
        ClientValues.of(indices(clients)));
    JavaFunction fn = new JavaFunction("delta", FunctionType.of(Types.parse("int32"),
        Types.parse("float32[2]")), arg -> {
          int i = ((Tensor) arg).getInt(0);
          Tensor t = Tensor.difference(Shape.of(2), new float[] {i + 0.1f, -i},
              new float[] {0.05f, 0.5f}, restored -> {
                synchronized (returns) {
                  returns.add(restored);
                }
              });
          synchronized (made) {
            made.add(t);
          }
          return t;
        });
    return new ClientNode.Map(Types.parse("{float32[2]}@CLIENTS"), "federated_map",
        new LocalFn.Java(fn), k);
  }

  private static Tensor expected(int k) {
    return Tensor.ofFloats(Shape.of(2), (k + 0.1f) - 0.05f, -k - 0.5f);
  }

  @Test
  void run_onlySums_addsTheDeferredValuesAndDiscardsThemUnmade() {
    int clients = 40;
    LinearSink sum = LinearSink.sum("federated_sum", deltas(clients), RuntimeOptions.defaults());
    assertThat(sum.keepsValues()).isFalse();
    ClientPass.Result r = new ClientPass(clients, List.<Sink>of(sum), settings(), new long[0])
        .run();

    List<Object> plainValues = new ArrayList<>();
    for (int k = 0; k < clients; k++) {
      plainValues.add(expected(k));
    }
    LinearSink plain = LinearSink.sum("federated_sum", new ClientNode.Argument(
        Types.parse("{float32[2]}@CLIENTS"), ClientValues.of(plainValues)),
        RuntimeOptions.defaults());
    ClientPass.Result want = new ClientPass(clients, List.<Sink>of(plain), settings(),
        new long[0]).run();
    assertThat(r.values()[0]).isEqualTo(want.values()[0]);
    assertThat(made).hasSize(clients);
    assertThat(returns).hasSize(clients).containsOnly(false);
  }

  @Test
  void run_withASinkThatKeepsValues_leavesThemReadable() {
    int clients = 5;
    ClientNode input = deltas(clients);
    LinearSink sum = LinearSink.sum("federated_sum", input, RuntimeOptions.defaults());
    ClientPass.Result r = new ClientPass(clients, List.of(sum, new CollectSink(input)),
        settings(), new long[0]).run();
    @SuppressWarnings("unchecked")
    List<Object> collected = (List<Object>) r.values()[1];
    assertThat(collected.get(3)).isEqualTo(expected(3));
    assertThat(returns).doesNotContain(false);
  }

  @Test
  void run_onlySumsOfTheCallersDeferredValues_makesThemAndKeepsThemReadable() {
    List<Object> values = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      values.add(Tensor.difference(Shape.of(2), new float[] {k + 0.1f, -k},
          new float[] {0.05f, 0.5f}, restored -> {
            synchronized (returns) {
              returns.add(restored);
            }
          }));
    }
    LinearSink sum = LinearSink.sum("federated_sum", new ClientNode.Argument(
        Types.parse("{float32[2]}@CLIENTS"), ClientValues.of(values)), RuntimeOptions.defaults());
    new ClientPass(3, List.<Sink>of(sum), settings(), new long[0]).run();
    assertThat(returns).containsOnly(true);
    assertThat(values.get(2)).isEqualTo(expected(2));
  }
}
