package io.tributary.flower.fleet.server;

import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.DualLayoutClientApp;
import io.tributary.flower.app.Mod;
import io.tributary.flower.app.mod.SecAggPlusMod;
import io.tributary.flower.fleet.FleetTransport;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.tensor.Tensor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Java SuperNodes of the SecAgg+ tests: each adds {@code k} to every parameter, claims {@code k}
 * examples and wears {@link SecAggPlusMod}, so that a round's model is {@code INIT + sum(k^2) /
 * sum(k)} over the nodes that stayed in it.
 */
public final class SecAggPlusNodes {
  private SecAggPlusNodes() {}

  /** A client adding {@code k} to every parameter and claiming {@code k} examples. */
  public static FlowerClient plus(double k) {
    return new FlowerClient() {
      @Override
      public FitRes fit(FitIns ins) {
        Tensor t = ins.parameters().getFirst();
        double[] v = new double[(int) t.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = t.getAsDouble(i) + k;
        }
        return new FitRes(List.of(Tensor.ofDoubles(t.shape(), v)), (long) k, Map.of());
      }

      @Override
      public EvaluateRes evaluate(EvaluateIns ins) {
        return new EvaluateRes(0.5f, (long) k, Map.of());
      }
    };
  }

  /**
   * The app of {@link #plus(double) plus(k)} in both layouts, its DefaultWorkflow messages
   * through {@code outer} (outermost first), then {@link SecAggPlusMod}.
   */
  public static ClientApp app(double k, Mod... outer) {
    List<Mod> mods = new ArrayList<>(List.of(outer));
    mods.add(new SecAggPlusMod());
    return DualLayoutClientApp.of(plus(k), List.of(), List.of(), mods.toArray(Mod[]::new));
  }

  /**
   * Starts a SuperNode serving {@code app} at {@code address} (host:port) over grpc-rere without
   * TLS, polling every 100 ms.
   */
  public static SuperNode start(String address, ClientApp app) {
    return SuperNode.builder(address).insecure(true).transport(FleetTransport.grpcRere())
        .clientApp(app).pollInterval(Duration.ofMillis(100)).build().start();
  }

  /** Starts a SuperNode serving {@link #app(double, Mod...) app(k)} at {@code address}. */
  public static SuperNode start(String address, double k) {
    return start(address, app(k));
  }
}
