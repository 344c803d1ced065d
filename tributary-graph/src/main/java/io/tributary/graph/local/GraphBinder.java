package io.tributary.graph.local;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.compiler.LocalComputation;
import io.tributary.core.compiler.LocalComputations;
import io.tributary.core.compiler.LocalFunction;
import io.tributary.core.computation.Computation;
import io.tributary.graph.Graph;
import io.tributary.graph.GraphFb;
import io.tributary.graph.GraphFormatException;
import io.tributary.graph.GraphValidationException;
import io.tributary.graph.ops.GemmKernel;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Makes graph computations runnable: reads each one's graph, looks its procedure up in a fixed
 * table given to the binder, and returns a {@link JavaFunction} with the same name and type whose
 * body runs the graph.
 *
 * <p>{@link #bindAll(Computation)} applies this to every graph computation inside a federated
 * computation, so any runtime that runs Java functions runs graph computations too, and the
 * unbound computation is still the one that is serialized. Immutable; a procedure name is only
 * ever looked up in the table, never turned into a class.
 */
public final class GraphBinder {
  /** Procedure name of {@link LocalTraining#clientUpdate}. */
  public static final String CLIENT_UPDATE = "client_update";

  /** Procedure name of {@link LocalTraining#evaluation}. */
  public static final String EVALUATE = "evaluate";

  /** Procedure name of {@link LocalTraining#initialModel}. */
  public static final String INITIAL_MODEL = "initial_model";

  private final Map<String, GraphProcedure> procedures;

  private GraphBinder(Map<String, GraphProcedure> procedures) {
    this.procedures = Map.copyOf(procedures);
  }

  /** A binder that knows the built-in procedures, on {@link GemmKernel#DEFAULT}. */
  public static GraphBinder standard() {
    return standard(GemmKernel.DEFAULT);
  }

  /**
   * A binder that knows the built-in procedures, whose graphs run their matrix products on {@code
   * gemm}: the run's kernel.
   */
  public static GraphBinder standard(GemmKernel gemm) {
    Objects.requireNonNull(gemm, "gemm");
    return new GraphBinder(Map.of(CLIENT_UPDATE, new ClientUpdateProcedure(gemm),
        EVALUATE, new EvaluationProcedure(gemm), INITIAL_MODEL, new InitialModelProcedure()));
  }

  /** A binder that also knows {@code procedure} under {@code name} (replacing any before). */
  public GraphBinder with(String name, GraphProcedure procedure) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(procedure, "procedure");
    Map<String, GraphProcedure> m = new HashMap<>(procedures);
    m.put(name, procedure);
    return new GraphBinder(m);
  }

  /**
   * The runnable form of {@code computation}.
   *
   * @throws GraphBindingException if the graph bytes are corrupt or invalid, the procedure is
   *     unknown, or the procedure rejects the settings or the declared type
   */
  public JavaFunction bind(GraphComputation computation) throws GraphBindingException {
    GraphProcedure procedure = procedures.get(computation.procedure());
    if (procedure == null) {
      throw new GraphBindingException("graph computation " + computation.name()
          + " uses the procedure '" + computation.procedure() + "', which this binder does not"
          + " know (it knows " + new java.util.TreeSet<>(procedures.keySet()) + ")");
    }
    Graph graph;
    try {
      graph = GraphFb.fromBytes(computation.graph()).validate();
    } catch (GraphFormatException | GraphValidationException e) {
      throw new GraphBindingException(
          "graph computation " + computation.name() + ": " + e.getMessage(), e);
    }
    LocalFunction body = procedure.prepare(computation, graph);
    return new JavaFunction(computation.name(), computation.type(), body);
  }

  /**
   * {@code block} with every graph computation replaced by its bound form; each distinct graph
   * computation is bound once.
   *
   * @throws GraphBindingException for the first graph computation that cannot be bound
   */
  public BuildingBlock bindAll(BuildingBlock block) throws GraphBindingException {
    Map<GraphComputation, JavaFunction> bound = new HashMap<>();
    for (LocalComputation lc : LocalComputations.all(block)) {
      if (lc instanceof GraphComputation g && !bound.containsKey(g)) {
        bound.put(g, bind(g));
      }
    }
    return LocalComputations.replaceAll(block,
        lc -> lc instanceof GraphComputation g ? bound.get(g) : lc);
  }

  /** {@link #bindAll(BuildingBlock)} for a computation. */
  public Computation bindAll(Computation computation) throws GraphBindingException {
    return Computation.of(bindAll(computation.block()));
  }
}
