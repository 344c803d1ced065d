package io.tributary.ui.browser;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** A Flower app project for a Fleet server, and the Java ClientApps its SuperNodes run. */
final class NodeApps {
  private NodeApps() {}

  /** A project whose client app the Java nodes stand in for. */
  static Path project(Path dir) throws IOException {
    Path app = dir.resolve("app");
    Files.createDirectories(app.resolve("pkg"));
    Files.writeString(app.resolve("pyproject.toml"), """
        [project]
        name = "plus-one"
        version = "1.0.0"

        [tool.flwr.app]
        publisher = "tributary"

        [tool.flwr.app.components]
        clientapp = "pkg.client_app:app"

        [tool.flwr.app.config]
        num-server-rounds = 2
        """);
    Files.writeString(app.resolve("pkg/client_app.py"), "app = None\n");
    return app;
  }

  /**
   * Adds 1 to every array and claims 1 example; its train fails in round {@code failIn} (0:
   * never), as an app whose disk is full.
   */
  static ClientApp plusOne(long failIn) {
    return ClientApp.builder().train((Message m, io.tributary.flower.app.Context c) -> {
      ConfigRecord config = m.content().configRecords().get("config");
      Object round = config == null ? null : config.get("server-round");
      if (round instanceof Long r && r == failIn) {
        throw new IllegalStateException("disk full in round " + r);
      }
      ArrayRecord in = (ArrayRecord) m.content().get("arrays");
      Map<String, Tensor> out = new LinkedHashMap<>();
      for (var e : in.toTensors().entrySet()) {
        Tensor t = e.getValue();
        double[] v = new double[(int) t.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = t.getAsDouble(i) + 1;
        }
        out.put(e.getKey(), Tensor.ofDoubles(t.shape(), v));
      }
      return m.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(out), "metrics",
          new MetricRecord(Map.of("num-examples", 1L, "loss", 1.0))));
    }).evaluate((Message m, io.tributary.flower.app.Context c) -> m.reply(RecordDict.of(
        "metrics", new MetricRecord(Map.of("num-examples", 1L, "loss", 0.5))))).build();
  }
}
