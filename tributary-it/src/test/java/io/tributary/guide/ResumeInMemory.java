package io.tributary.guide;

import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationListener;
import io.tributary.simulation.SimulationResult;
import io.tributary.simulation.SimulationSettings;
import java.util.Optional;

/** Pauses a simulation between rounds and resumes it from the result held in memory. */
public final class ResumeInMemory {
  private ResumeInMemory() {}

  public static void main(String[] args) throws Exception {
    SimulationSettings settings = SimulationSettings.builder()
        .algorithm(FederatedAlgorithm.named("fedadam"))
        .model(ModelKind.MCLR).clients(10).clientsPerRound(5).rounds(8).seed(4).build();

    // A listener's answer pauses the run after round 3: no file is written or read.
    SimulationResult paused = Simulation.builder(settings)
        .listener(new SimulationListener() {
          @Override
          public Optional<String> stopAfter(RoundRecord round) {
            return round.round() == 3 ? Optional.of("paused") : Optional.empty();
          }
        }).build().run();
    System.out.println(paused.outcome() + " complete: " + paused.complete());

    // Later, in the same process: the remaining rounds, FedAdam's moments included.
    SimulationResult done = Simulation.builder(settings).resumeFrom(paused).build().run();
    SimulationResult straight = Simulation.builder(settings).build().run();
    System.out.println("resumed after round " + done.resumedAfter() + ", " + done.history().size()
        + " rounds; same model as an uninterrupted run: "
        + done.finalParameters().equals(straight.finalParameters()));
  }
}
