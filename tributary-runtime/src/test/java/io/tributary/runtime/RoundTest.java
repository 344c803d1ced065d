package io.tributary.runtime;

import static io.tributary.runtime.TestValues.f32;
import static io.tributary.runtime.TestValues.f32v;
import static io.tributary.runtime.TestValues.i32;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Call;
import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Reference;
import io.tributary.core.compiler.Selection;
import io.tributary.core.compiler.Struct;
import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A FedAvg-shaped round (broadcast, a local Java update per client, weighted mean of models,
 * mean of metrics) and computations nested in one another.
 */
class RoundTest {
  private static final Type MODEL = Types.parse("<w=float32[2]>");

  /** Moves the model halfway to the mean of the client's examples; weight = example count. */
  private static Computation clientUpdate(AtomicInteger calls) {
    return Federated.local("client_update",
        "(<<w=float32[2]>,float32[2]*> -> <model=<w=float32[2]>,metrics=<loss=float32>,"
            + "num_examples=float32>)",
        arg -> {
          calls.incrementAndGet();
          StructValue a = (StructValue) arg;
          Tensor w = (Tensor) ((StructValue) a.get(0)).get("w");
          float[] sum = new float[2];
          int n = 0;
          for (Object x : (Iterable<?>) a.get(1)) {
            Tensor t = (Tensor) x;
            sum[0] += t.getFloat(0);
            sum[1] += t.getFloat(1);
            n++;
          }
          float[] next = {
            (w.getFloat(0) + sum[0] / n) / 2, (w.getFloat(1) + sum[1] / n) / 2
          };
          return StructValue.named(
              "model", StructValue.named("w", f32v(next)),
              "metrics", StructValue.named("loss", f32(n)),
              "num_examples", f32(n));
        });
  }

  private static Computation round(AtomicInteger calls) {
    Computation update = clientUpdate(calls);
    return Federated.computation(
        Types.parse(MODEL + "@SERVER"), Types.parse("{float32[2]*}@CLIENTS"),
        (serverModel, data) -> {
          Value clientModel = Intrinsics.federatedBroadcast(serverModel);
          Value out = Intrinsics.federatedMap(update, Federated.struct(clientModel, data));
          Value model = Intrinsics.federatedWeightedMean(out.get("model"),
              out.get("num_examples"));
          Value metrics = Intrinsics.federatedMean(out.get("metrics"));
          return Federated.struct(model, metrics);
        });
  }

  private static List<Object> data() {
    return List.of(
        List.of(f32v(1, 1), f32v(3, 3)),            // mean (2,2), 2 examples
        List.of(f32v(4, 0)),                        // mean (4,0), 1 example
        List.of(f32v(0, 2), f32v(0, 2), f32v(0, 2)) // mean (0,2), 3 examples
    );
  }

  @Test
  void invoke_fedAvgRound_averagesModelsByExampleCountInOnePass() {
    AtomicInteger calls = new AtomicInteger();
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(2))) {
      Outcome out = ctx.invokeWithReport(round(calls),
          StructValue.named("w", f32v(0, 0)), data());
      StructValue result = (StructValue) out.value();
      // Client models: (1,1), (2,0), (0,1); weights 2, 1, 3 -> (4/6, 5/6).
      Tensor w = (Tensor) ((StructValue) result.get(0)).get("w");
      assertThat(w.allClose(f32v(4f / 6, 5f / 6), 1e-6, 1e-6)).isTrue();
      assertThat(((StructValue) result.get(1)).get("loss")).isEqualTo(f32(2));
      assertThat(out.report().clients()).isEqualTo(3);
      assertThat(out.report().clientPasses()).isEqualTo(1);
      // Three aggregated outputs read the update, yet it ran once per client.
      assertThat(calls.get()).isEqualTo(3);
    }
  }

  @Test
  void invoke_roundCalledTwiceInsideAnotherComputation_runsTwoPassesInOrder() {
    AtomicInteger calls = new AtomicInteger();
    Computation round = round(calls);
    Computation twoRounds = Federated.computation(
        Types.parse(MODEL + "@SERVER"), Types.parse("{float32[2]*}@CLIENTS"),
        (model, data) -> {
          Value first = round.call(model, data);
          return round.call(first.get(0), data);
        });
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(3))) {
      Outcome out = ctx.invokeWithReport(twoRounds, StructValue.named("w", f32v(0, 0)), data());
      StructValue result = (StructValue) out.value();
      // Second round from (4/6, 5/6): client models ((w+m)/2) weighted 2,1,3.
      float w0 = 4f / 6;
      float w1 = 5f / 6;
      float e0 = (2 * ((w0 + 2) / 2) + ((w0 + 4) / 2) + 3 * (w0 / 2)) / 6;
      float e1 = (2 * ((w1 + 2) / 2) + (w1 / 2) + 3 * ((w1 + 2) / 2)) / 6;
      Tensor w = (Tensor) ((StructValue) result.get(0)).get("w");
      assertThat(w.allClose(f32v(e0, e1), 1e-6, 1e-6)).isTrue();
      assertThat(out.report().clientPasses()).isEqualTo(2);
      assertThat(calls.get()).isEqualTo(6);
    }
  }

  @Test
  void invoke_localLambdaCapturingAnUnplacedValue_usesTheCapturedValue() {
    // (x -> federated_map(<(y -> y + x), clients>)) where x is unplaced: the lambda is closed
    // over x's value when it is handed to federated_map.
    Computation add = Federated.computation(Types.parse("<float32,{float32}@CLIENTS>"),
        p -> {
          Computation plus = Federated.computation(Types.parse("<float32,float32>"),
              q -> Intrinsics.genericPlus(q.get(0), q.get(1)));
          Computation addTo = Federated.computation(Types.parse("float32"),
              y -> plus.call(y, Federated.constant(f32(10))));
          return Intrinsics.federatedSum(Intrinsics.federatedMap(addTo, p.get(1)));
        });
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(2))) {
      Object r = ctx.invoke(add, f32(0), List.of(f32(1), f32(2)));
      assertThat(r).isEqualTo(f32(23));
    }
  }

  @Test
  void invoke_sameComputationAgainInOneContext_eachCallUsesItsOwnCapturedValue() {
    // (p -> federated_sum(federated_map(<(y -> y + p[0]), p[1]>))): the lambda handed to
    // federated_map captures p; the context remembers its type after the first call, and each
    // call must still close it over that call's value.
    BuildingBlock plus = new Intrinsic("generic_plus", Types.parse("(<float32,float32> -> float32)"));
    BuildingBlock addP = Lambda.of("y", Types.parse("float32"), Call.of(plus,
        Struct.of(new Reference("y"), Selection.byIndex(new Reference("p"), 0))));
    BuildingBlock map = new Intrinsic("federated_map",
        Types.parse("(<(float32 -> float32),{float32}@CLIENTS> -> {float32}@CLIENTS)"));
    BuildingBlock sum = new Intrinsic("federated_sum",
        Types.parse("({float32}@CLIENTS -> float32@SERVER)"));
    Computation add = Computation.of(Lambda.of("p", Types.parse("<float32,{float32}@CLIENTS>"),
        Call.of(sum, Call.of(map, Struct.of(addP, Selection.byIndex(new Reference("p"), 1))))));
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(2))) {
      assertThat(ctx.invoke(add, f32(10), List.of(f32(1), f32(2)))).isEqualTo(f32(23));
      assertThat(ctx.invoke(add, f32(100), List.of(f32(1), f32(2)))).isEqualTo(f32(203));
      assertThat(ctx.invoke(add, f32(0), List.of(f32(1), f32(2), f32(3)))).isEqualTo(f32(6));
    }
  }

  @Test
  void invoke_lambdaCapturingAFunction_runsTheCapturedFunction() {
    // federated-language writes sequence_map at clients as federated_map of a curried lambda
    // that captures the mapped function: (arg0 -> (arg1 -> sequence_map(<arg0,arg1>)))(fn).
    Type seq = Types.parse("int32*");
    Type fnType = Types.parse("(int32 -> <int32,int32>)");
    BuildingBlock fn = Lambda.of("v", Types.parse("int32"),
        Struct.of(new Reference("v"), new Reference("v")));
    BuildingBlock seqMap = new Intrinsic("sequence_map",
        Types.parse("(<(int32 -> <int32,int32>),int32*> -> <int32,int32>*)"));
    BuildingBlock curried = Lambda.of("arg0", fnType, Lambda.of("arg1", seq,
        Call.of(seqMap, Struct.of(new Reference("arg0"), new Reference("arg1")))));
    BuildingBlock mapped = Call.of(new Intrinsic("federated_map",
            Types.parse("(<(int32* -> <int32,int32>*),{int32*}@CLIENTS>"
                + " -> {<int32,int32>*}@CLIENTS)")),
        Struct.of(Call.of(curried, fn), new Reference("x")));
    Computation c = Computation.of(Lambda.of("x", Types.parse("{int32*}@CLIENTS"), mapped));
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(2))) {
      Object r = ctx.invoke(c, List.of(List.of(i32(1), i32(2)), List.of()));
      assertThat(r).isEqualTo(List.of(
          List.of(StructValue.of(i32(1), i32(1)), StructValue.of(i32(2), i32(2))), List.of()));
    }
  }

  @Test
  void invoke_perClientResult_isReturnedInClientOrder() {
    AtomicInteger calls = new AtomicInteger();
    Computation update = clientUpdate(calls);
    Computation c = Federated.computation(
        Types.parse(MODEL + "@SERVER"), Types.parse("{float32[2]*}@CLIENTS"),
        (m, d) -> Intrinsics.federatedMap(update,
            Federated.struct(Intrinsics.federatedBroadcast(m), d)).get("num_examples"));
    List<Object> expected = new ArrayList<>(List.of(f32(2), f32(1), f32(3)));
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(2))) {
      assertThat(ctx.invoke(c, StructValue.named("w", f32v(0, 0)), data())).isEqualTo(expected);
    }
  }
}
