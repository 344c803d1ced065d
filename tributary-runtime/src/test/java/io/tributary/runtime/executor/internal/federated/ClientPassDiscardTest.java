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
 * A pass whose sinks only add the clients' values adds the deferred tensors a client's work made
 * without making them, with the bits of the made values: a value one sink adds is its sum's last
 * read, which gives the arrays back restored; one two sinks add comes back unread once both have
 * added it. A pass with a sink that keeps values leaves them to be read, and a caller's own
 * values are never discarded. A client whose value is not finite fails, and the others' sums are
 * those of made values.
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

  /** Client k's trained array, by k, for the deltas of {@link #bigDeltas}. */
  private final Map<Integer, float[]> trained = new java.util.concurrent.ConcurrentHashMap<>();

  /** The start every client of {@link #bigDeltas} trains from: finite, well inside the range. */
  private static float[] start(int n) {
    float[] s = new float[n];
    for (int i = 0; i < n; i++) {
      s[i] = (i % 7) * 0.25f - 0.5f;
    }
    return s;
  }

  /** Client k's trained elements: the start plus a little, with {@code bad} at its element. */
  private static float[] trainedOf(int k, float[] start, Map<Integer, float[]> bad) {
    float[] a = start.clone();
    for (int i = 0; i < a.length; i++) {
      a[i] += (k * 31 + i) % 11 * 1e-3f;
    }
    float[] b = bad.get(k);
    if (b != null) {
      a[(int) b[0]] = b[1];
    }
    return a;
  }

  /**
   * Client k's delta {@code trainedOf(k) - start} as a model's client does it: a deferred
   * difference lent a trained array and the shared start; made ({@code made}) or deferred.
   */
  private ClientNode bigDeltas(int clients, int n, Map<Integer, float[]> bad, boolean deferred) {
    float[] start = start(n);
    ClientNode k = new ClientNode.Argument(Types.parse("{int32}@CLIENTS"),
        ClientValues.of(indices(clients)));
    JavaFunction fn = new JavaFunction("delta", FunctionType.of(Types.parse("int32"),
        Types.parse("float32[" + n + "]")), arg -> {
          int i = ((Tensor) arg).getInt(0);
          float[] a = trainedOf(i, start, bad);
          if (!deferred) {
            float[] d = new float[n];
            for (int j = 0; j < n; j++) {
              d[j] = a[j] - start[j];
            }
            return Tensor.ofFloats(Shape.of(n), d);
          }
          trained.put(i, a);
          return Tensor.difference(Shape.of(n), a, start, true, restored -> {
            synchronized (returns) {
              returns.add(restored);
            }
          });
        });
    return new ClientNode.Map(Types.parse("{float32[" + n + "]}@CLIENTS"), "federated_map",
        new LocalFn.Java(fn), k);
  }

  private ClientPass.PassSettings tolerant() {
    return new ClientPass.PassSettings(2, pool, runner, Optional.empty(), 0.5,
        new LocalEvaluator(Map.of()), 0, ClientObserver.NONE);
  }

  @Test
  void run_nonFiniteClientsInAGroup_failsThemAndSumsTheOthersAsMadeValues() {
    // 2,560 clients: groups of 10, so a group is a batch of 8 and one of 2.
    int clients = 2_560;
    int n = 3_000;
    Map<Integer, float[]> bad = Map.of(
        13, new float[] {1_500, Float.NaN},
        17, new float[] {n - 1, Float.POSITIVE_INFINITY},
        18, new float[] {n - 1, Float.NaN},
        2_559, new float[] {0, Float.NEGATIVE_INFINITY});
    LinearSink mean = LinearSink.mean(bigDeltas(clients, n, bad, true),
        RuntimeOptions.defaults());
    ClientPass.Result got = new ClientPass(clients, List.<Sink>of(mean), tolerant(),
        new long[0]).run();
    LinearSink plain = LinearSink.mean(bigDeltas(clients, n, bad, false),
        RuntimeOptions.defaults());
    ClientPass.Result want = new ClientPass(clients, List.<Sink>of(plain), tolerant(),
        new long[0]).run();

    assertThat(got.failures()).extracting(f -> f.client()).containsExactly(13, 17, 18, 2_559);
    assertThat(got.failures()).isEqualTo(want.failures());
    assertThat(got.failures().get(1).message()).contains("+Inf at element " + (n - 1));
    assertThat(got.values()[0]).isEqualTo(want.values()[0]);
    float[] start = start(n);
    for (int k = 0; k < clients; k++) {
      if (!bad.containsKey(k)) {
        assertThat(trained.get(k)).as("client %d", k).containsExactly(start);
      }
    }
    // A failed client's delta is made to say what is wrong with it, which restores its arrays.
    assertThat(returns).hasSize(clients).containsOnly(true);
  }

  @Test
  void run_twoSinksAddTheSameValue_bothAddItAndTheArraysComeBackUnread() {
    int clients = 600;
    int n = 50;
    ClientNode input = bigDeltas(clients, n, Map.of(), true);
    List<Sink> sinks = List.of(LinearSink.mean(input, RuntimeOptions.defaults()),
        LinearSink.sum("federated_sum", input, RuntimeOptions.defaults()));
    ClientPass.Result got = new ClientPass(clients, sinks, settings(), new long[0]).run();
    ClientNode made = bigDeltas(clients, n, Map.of(), false);
    ClientPass.Result want = new ClientPass(clients, List.of(
        LinearSink.mean(made, RuntimeOptions.defaults()),
        LinearSink.sum("federated_sum", made, RuntimeOptions.defaults())), settings(),
        new long[0]).run();
    assertThat(got.values()).containsExactly(want.values());
    assertThat(returns).hasSize(clients).containsOnly(false);
  }

  @Test
  void run_onlySums_addsTheDeferredValuesAndGivesTheArraysBackRestored() {
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
    assertThat(returns).hasSize(clients).containsOnly(true);
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
    assertThat(collected).hasSize(clients);
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
