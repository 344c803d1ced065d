package io.tributary.runtime;

import static io.tributary.runtime.TestValues.f32;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Each client's end told to the invocation's observer, as its work ends, never changing it. */
class ClientObserverTest {
  /** Scales a value by 1/3 (rounding, so the sum's order shows); throws for the ids in bad. */
  private static Computation meanOfFlaky(Set<Integer> bad) {
    Computation fn = Federated.local("flaky", "(<float32,int32> -> float32)", arg -> {
      StructValue a = (StructValue) arg;
      int id = ((Tensor) a.get(1)).getInt(0);
      if (bad.contains(id)) {
        throw new IllegalStateException("device " + id + " ran out of battery");
      }
      return f32(((Tensor) a.get(0)).getFloat(0) / 3f);
    });
    return Federated.computation(Types.parse("{float32}@CLIENTS"), Types.parse("{int32}@CLIENTS"),
        (x, id) -> Intrinsics.federatedMean(Intrinsics.federatedMap(fn, Federated.struct(x, id))));
  }

  private static List<Object> values(int n) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(f32(0.1f * i + 0.7f));
    }
    return out;
  }

  private static List<Object> ids(int n) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(TestValues.i32(i));
    }
    return out;
  }

  /** Counts each client's events. */
  private static final class Recorder implements ClientObserver {
    final Map<Integer, Integer> done = new ConcurrentHashMap<>();
    final Map<Integer, ClientFailure> failed = new ConcurrentHashMap<>();

    @Override
    public void clientDone(int pass, int client) {
      done.merge(client, 1, Integer::sum);
    }

    @Override
    public void clientFailed(int pass, ClientFailure failure) {
      failed.put(failure.client(), failure);
    }
  }

  @Test
  void invokeObserved_oneClientThrows_tellsEveryOtherDoneAndItsFailureWithTheReason() {
    RuntimeOptions options = RuntimeOptions.defaults().withThreads(4).withMinSuccessFraction(0.5);
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      Recorder recorder = new Recorder();
      Outcome out = ctx.invokeObserved(meanOfFlaky(Set.of(7)), recorder, values(1000),
          ids(1000));

      assertThat(recorder.done).hasSize(999).doesNotContainKey(7)
          .allSatisfy((client, times) -> assertThat(times).isOne());
      assertThat(recorder.failed).containsOnlyKeys(7);
      assertThat(recorder.failed.get(7).kind()).isEqualTo(ClientFailure.Kind.THREW);
      assertThat(recorder.failed.get(7).message()).contains("ran out of battery");
      assertThat(out.report().failures()).containsExactly(recorder.failed.get(7));
    }
  }

  @Test
  void invokeObserved_withOrWithoutObserver_bitIdenticalOnAnyThreadCount() {
    float plain;
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults()
        .withThreads(1).withMinSuccessFraction(0.5))) {
      plain = ((Tensor) ctx.invoke(meanOfFlaky(Set.of(3)), values(777), ids(777))).getFloat(0);
    }
    for (int threads : new int[] {1, 3, 8}) {
      try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults()
          .withThreads(threads).withMinSuccessFraction(0.5))) {
        Outcome out = ctx.invokeObserved(meanOfFlaky(Set.of(3)), new Recorder(), values(777),
            ids(777));
        assertThat(Float.floatToRawIntBits(((Tensor) out.value()).getFloat(0))).as("%d threads",
            threads).isEqualTo(Float.floatToRawIntBits(plain));
      }
    }
  }

  @Test
  void invokeObserved_observerThrowsOnEveryEvent_invocationUnaffected() {
    AtomicInteger told = new AtomicInteger();
    ClientObserver hostile = new ClientObserver() {
      @Override
      public void clientDone(int pass, int client) {
        told.incrementAndGet();
        throw new IllegalStateException("the page is broken");
      }

      @Override
      public void clientFailed(int pass, ClientFailure failure) {
        told.incrementAndGet();
        throw new IllegalStateException("the page is broken");
      }
    };
    RuntimeOptions options = RuntimeOptions.defaults().withThreads(2).withMinSuccessFraction(0.5);
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      Outcome plain = ctx.invokeWithReport(meanOfFlaky(Set.of(2)), values(50), ids(50));
      Outcome observed = ctx.invokeObserved(meanOfFlaky(Set.of(2)), hostile, values(50),
          ids(50));

      assertThat(told).hasValue(50);
      assertThat(observed.value()).isEqualTo(plain.value());
      assertThat(observed.report().failures()).isEqualTo(plain.report().failures());
    }
  }
}
