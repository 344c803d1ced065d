package io.tributary.guide;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;

/** Runs a federated computation on concrete values: three clients' readings and a threshold. */
public final class ComputeOnValues {
  private ComputeOnValues() {}

  public static void main(String[] args) {
    TensorType float32 = Types.tensor(DType.FLOAT32);
    // Runs on each client: 1 when the client's reading is above the threshold, else 0.
    Computation above = Federated.local("above",
        Types.function(Types.struct(float32, float32), Types.tensor(DType.INT32)),
        arg -> {
          StructValue pair = (StructValue) arg;
          boolean isAbove = pair.tensor(0).floatItem() > pair.tensor(1).floatItem();
          return Tensor.ofInts(Shape.scalar(), isAbove ? 1 : 0);
        });
    // (<float32@SERVER,{float32}@CLIENTS> -> <above=int32@SERVER,mean=float32@SERVER>)
    Computation summary = Federated.computation(
        Types.atServer(float32), Types.atClients(float32),
        (threshold, readings) -> Federated.struct(Map.of(
            "mean", Intrinsics.federatedMean(readings),
            "above", Intrinsics.federatedSum(Intrinsics.federatedMap(above,
                Federated.struct(readings, Intrinsics.federatedBroadcast(threshold)))))));
    System.out.println("type: " + Types.print(summary.type()));

    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      StructValue result = (StructValue) ctx.invoke(summary,
          Tensor.scalar(20f), List.of(Tensor.scalar(20.5f), Tensor.scalar(22f),
              Tensor.scalar(19f)));
      System.out.println("mean reading: " + result.tensor("mean").floatItem());
      System.out.println("clients above 20: " + result.tensor("above").longItem());
    }
  }
}
