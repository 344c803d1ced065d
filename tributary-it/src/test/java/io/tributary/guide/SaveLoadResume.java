package io.tributary.guide;

import io.tributary.format.ModelFile;
import io.tributary.format.ModelTag;
import io.tributary.format.ModelWriter;
import io.tributary.format.TagContents;
import io.tributary.format.TrainingConfig;
import io.tributary.graph.Graph;
import io.tributary.graph.GraphFb;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.RunFiles;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationListener;
import io.tributary.simulation.SimulationResult;
import io.tributary.simulation.SimulationSettings;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Saves and reads a model file, then stops a simulation and resumes it from its checkpoint. */
public final class SaveLoadResume {
  private SaveLoadResume() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "runs/guide-resume");

    // A model file with one tag: parameters, the graph, and how they were trained.
    Model model = Models.mclr();
    TagContents.Builder tag = TagContents.builder()
        .graph(ByteBuffer.wrap(GraphFb.toBytes(model.graph())))
        .trainingConfig(TrainingConfig.of("sgd", Map.of("learning_rate", 0.1)));
    model.initialParameters(1).forEach(tag::parameter);
    Path file = dir.resolve("mclr.zip");
    ModelWriter.save(file, Map.of("initial", tag.build()));
    try (ModelFile saved = ModelFile.open(file)) {
      ModelTag newest = saved.newest();
      Graph graph = GraphFb.read(newest.graph().orElseThrow());
      System.out.println(newest.name() + ": " + newest.parameterNames() + ", same graph: "
          + graph.equals(model.graph()) + ", same values: "
          + newest.parameters().equals(model.initialParameters(1)));
    }

    // A simulation that a listener stops after round 3 (a target reached, a budget spent): the
    // round is checkpointed, as every second one is. A killed run resumes the same way.
    SimulationSettings settings = SimulationSettings.builder().model(ModelKind.MCLR)
        .clients(5).clientsPerRound(3).rounds(4).checkpointEvery(2).seed(3)
        .out(dir.resolve("run")).build();
    SimulationListener stopAfterRound3 = new SimulationListener() {
      @Override
      public Optional<String> stopAfter(RoundRecord round) {
        return round.round() == 3 ? Optional.of("enough for now") : Optional.empty();
      }
    };
    SimulationResult first = Simulation.builder(settings).writeFiles()
        .listener(stopAfterRound3).build().run();
    System.out.println("first run: " + first.outcome());
    try (ModelFile checkpoints = ModelFile.open(settings.out().resolve(RunFiles.MODEL))) {
      System.out.println("checkpoints: " + checkpoints.tags());
    }

    // Resuming goes on from the newest checkpoint and ends as an uninterrupted run would.
    SimulationResult result = Simulation.builder(settings).writeFiles().resume().build().run();
    System.out.println("resumed after round " + result.resumedAfter() + ", "
        + result.history().size() + " rounds in the history");
    try (ModelFile checkpoints = ModelFile.open(settings.out().resolve(RunFiles.MODEL))) {
      System.out.println("checkpoints: " + checkpoints.tags() + ", newest is the final model: "
          + checkpoints.newest().parameters().equals(result.finalParameters()));
    }
  }
}
