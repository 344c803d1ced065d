package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.flower.fleet.FlowerPeer;
import io.tributary.flower.fleet.server.PythonSuperNodes;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary server --fleet-api-address --dp client --adaptive-clip} with real Flower 1.27
 * SuperNodes whose ClientApp wears Flower's own {@code adaptiveclipping_mod}: the mod clips to
 * the {@code clipping_norm} the server sends and reports {@code norm_bit}, which the server's
 * adaptive clipping reads.
 */
@Timeout(300)
class ServerFleetDpTest {
  @TempDir Path dir;

  private Path app(FleetCliServer server) throws Exception {
    Path app = server.app("dpapp", "dpapp.client_app:app", "dpapp.client_app:app");
    Files.createDirectories(app.resolve("dpapp"));
    Files.writeString(app.resolve("dpapp/__init__.py"), "");
    Files.writeString(app.resolve("dpapp/client_app.py"), """
        from flwr.app import ArrayRecord, Message, MetricRecord, RecordDict
        from flwr.clientapp import ClientApp
        from flwr.clientapp.mod import adaptiveclipping_mod

        app = ClientApp()


        @app.train(mods=[adaptiveclipping_mod])
        def train(msg, context):
            arrays = msg.content["arrays"].to_numpy_ndarrays()
            model = [a + 10.0 for a in arrays]
            metrics = MetricRecord({"num-examples": 1})
            content = RecordDict({"arrays": ArrayRecord(model), "metrics": metrics})
            return Message(content=content, reply_to=msg)


        @app.evaluate()
        def evaluate(msg, context):
            metrics = MetricRecord({"num-examples": 1, "loss": 0.5})
            return Message(content=RecordDict({"metrics": metrics}), reply_to=msg)
        """);
    return app;
  }

  @Test
  void server_dpClientAdaptiveClipWithFlowersMod_updatesClippedToTheSentNorm()
      throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    FleetCliServer server = new FleetCliServer(dir);
    Path init = server.initial(Tensor.ofDoubles(Shape.of(3), 0, 0, 0));
    Path out = dir.resolve("run");
    Path app = app(server);
    try (PythonSuperNodes nodes = new PythonSuperNodes(flower, Files.createDirectories(
        dir.resolve("nodes")))) {
      CompletableFuture<CliRun> run = server.start(app, "--rounds", "1", "--min-clients", "2",
          "--initial", init.toString(), "--dp", "client", "--noise-multiplier", "0.01",
          "--clip", "1", "--adaptive-clip", "--client-wait", "120", "--out", out.toString());
      Thread.sleep(2000);
      nodes.start("dp-a", server.address(), 1);
      nodes.start("dp-b", server.address(), 2);
      CliRun r = run.get(240, TimeUnit.SECONDS);
      assertThat(r.exitCode()).as(r.err() + "\n" + nodes.tail("dp-a")).isZero();
    }
    List<String> metrics = Files.readAllLines(out.resolve("metrics.jsonl"));
    assertThat(metrics.getFirst()).contains("\"clients\": 2").contains("\"failures\": 0");
    // Each node's update (+10 in each of 3 coordinates) clipped to norm 1: 1/sqrt(3) each; the
    // mean of the two, plus noise of standard deviation 0.01 * 1 / 2.
    Tensor w = Npz.read(out.resolve("final.npz")).get("w");
    for (int i = 0; i < 3; i++) {
      assertThat(w.getAsDouble(i)).as("w[%d]", i).isCloseTo(1 / Math.sqrt(3), within(0.05));
    }
  }
}
