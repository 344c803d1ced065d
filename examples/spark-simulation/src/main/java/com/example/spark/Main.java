package com.example.spark;

import io.tributary.simulation.Engine;
import io.tributary.simulation.EngineProvider;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.SimulationSettings;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Settings of a simulation on a two-executor local Spark cluster, and what the application's class
 * path holds: the engine provider tributary-spark registers, and the Hadoop and protobuf versions
 * that Maven resolved for it. Running the simulation needs Spark's JVM options (docs/spark.md):
 * {@code Simulation.builder(settings).build().run()}.
 */
public final class Main {
  private Main() {}

  /** Prints the settings' command, the provider that runs them, and the libraries' versions. */
  public static void main(String[] args) {
    Engine.Cluster engine = new Engine.Cluster("local[2]", Map.of(), 2);
    SimulationSettings settings = SimulationSettings.builder().model(ModelKind.MCLR).clients(8)
        .clientsPerRound(4).rounds(3).seed(1).engine(engine).build();
    System.out.println("command: " + settings.shellCommand());
    for (EngineProvider p : ServiceLoader.load(EngineProvider.class)) {
      System.out.println("engine provider: " + p.getClass().getName() + " runs " + engine
          + ": " + p.runs(engine));
    }
    System.out.println("hadoop: " + org.apache.hadoop.util.VersionInfo.getVersion());
    System.out.println("protobuf-java: " + com.google.protobuf.RuntimeVersion.MAJOR + "."
        + com.google.protobuf.RuntimeVersion.MINOR + "." + com.google.protobuf.RuntimeVersion.PATCH);
  }
}
