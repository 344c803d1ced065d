package io.tributary.guide;

import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.output.ProgressListener;
import io.tributary.simulation.History;
import io.tributary.simulation.RunFiles;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationResult;
import io.tributary.simulation.SimulationSettings;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Runs a FedProx simulation on the digits that writes every file the command line writes. */
public final class RunSimulation {
  private RunSimulation() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args.length > 0 ? args[0] : "runs/guide-simulation");
    SimulationSettings settings = SimulationSettings.builder()
        .algorithm(FederatedAlgorithm.named("fedprox")).mu(0.01).clients(10).clientsPerRound(5)
        .rounds(5).seed(7).out(out).build();
    SimulationResult result = Simulation.builder(settings)
        .writeFiles()                                    // config.json ... report.html
        .progress(new PrintWriter(System.err, true), ProgressListener.Style.LINES)
        .build().run();

    History history = result.history();
    for (RoundRecord r : history.rounds()) {
      System.out.printf(Locale.ROOT, "round %d: train loss %.4f, test accuracy %.3f, %d bytes up%n",
          r.round(), r.trainLoss(), r.testAccuracy(), r.bytesUp());
    }
    RoundRecord best = history.bestTestAccuracy().orElseThrow();
    System.out.println("best round: " + best.round());
    System.out.println("parameters: " + result.finalParameters().keySet());
    for (String file : RunFiles.ALL) {
      System.out.println(file + ": " + Files.size(out.resolve(file)) + " bytes");
    }
  }
}
