package io.tributary.guide;

import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.simulation.DatasetSpec;
import io.tributary.simulation.RunFiles;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationResult;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.UserModel;
import io.tributary.tensor.DType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/** Your own CSV (a non-IID split by client), your own model file, and a target epsilon. */
public final class OwnDataAndModel {
  private OwnDataAndModel() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "runs/guide-own"));

    // 1. A CSV grouped by client: client k's rows are mostly of class k % 3 (a label skew).
    SplittableRandom random = new SplittableRandom(1);
    StringBuilder csv = new StringBuilder("device,temperature,vibration,load,fault\n");
    for (int k = 0; k < 12; k++) {
      for (int i = 0; i < 50; i++) {
        int fault = random.nextDouble() < 0.8 ? k % 3 : random.nextInt(3);
        csv.append("device-").append(k).append(String.format(Locale.ROOT, ",%.3f,%.3f,%.3f,%d%n",
            fault + random.nextGaussian() * 0.5, (fault == 1 ? 1 : 0) + random.nextGaussian(),
            random.nextGaussian(), fault));
      }
    }
    Path data = dir.resolve("faults.csv");
    Files.writeString(data, csv);

    // 2. A model file: a graph of one's own and the parameters training starts from.
    Model net = Models.mlp("faults-net", 3, 16, 3, DType.FLOAT32);
    Path model = dir.resolve("faults-net.zip");
    UserModel.write(model, "start", net, net.initialParameters(42));

    // 3. Both in a simulation whose privacy is aimed at epsilon 8 over its 20 rounds.
    SimulationSettings settings = SimulationSettings.builder()
        .dataset(new DatasetSpec.Csv(data).withColumns("device", "fault", List.of()))
        .model(model)
        .dp(DpSettings.builder(DpMode.CENTRAL).clip(2).build()).dpTargetEpsilon(8)
        .clientsPerRound(6).rounds(20).learningRate(0.2).seed(3)
        .out(dir.resolve("run")).build();
    System.out.println("clients: " + settings.clients() + ", split: " + settings.partition());
    System.out.printf(Locale.ROOT, "noise multiplier for epsilon 8: %.4f%n",
        settings.dp().orElseThrow().noiseMultiplier());

    SimulationResult result = Simulation.builder(settings).writeFiles().build().run();
    RoundRecord last = result.history().last();
    System.out.printf(Locale.ROOT, "epsilon spent: %.4f, test accuracy %.3f%n",
        last.algorithmMetric(RoundRecord.EPSILON), last.testAccuracy());

    // 4. The run's checkpoints are model files too: the trained model, graph and parameters.
    UserModel trained = UserModel.read(settings.out().resolve(RunFiles.MODEL));
    System.out.println("trained model: " + trained.parameters().keySet() + ", same graph: "
        + trained.model().graph().equals(net.graph()));
  }
}
