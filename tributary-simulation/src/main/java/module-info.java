/** The simulator: settings, engines, the run and its outputs. */
module io.tributary.simulation {
  requires transitive io.tributary.tensor;
  requires transitive io.tributary.core;
  requires transitive io.tributary.data;
  requires transitive io.tributary.graph;
  requires transitive io.tributary.format;
  requires transitive io.tributary.runtime;
  requires transitive io.tributary.learning;
  requires io.tributary.learning.graph;
  requires transitive io.tributary.privacy;
  requires com.fasterxml.jackson.databind;

  exports io.tributary.simulation;
  exports io.tributary.simulation.engine;
  exports io.tributary.simulation.output;

  uses io.tributary.simulation.EngineProvider;
}
