package io.tributary.learning;

import io.tributary.core.computation.Computation;
import java.util.Objects;

/**
 * A federated learning algorithm as three federated computations:
 *
 * <ul>
 *   <li>{@code initialize}: {@code ( -> S@SERVER)}, the first server state;
 *   <li>{@code next}: {@code (<S@SERVER,{B*}@CLIENTS> -> <S@SERVER,R@SERVER>)}, one round on
 *       the participating clients' data, giving the new state and the round's metrics R;
 *   <li>{@code evaluate}: {@code (<M@SERVER,{B*}@CLIENTS> -> E@SERVER)}, the model's loss and
 *       accuracy on the clients' data.
 * </ul>
 *
 * <p>Over graph-backed local training the computations call graph computations; {@code
 * io.tributary.learning.graph.GraphLearning.bound} gives the form any runtime that runs Java
 * functions can execute.
 *
 * @param name the algorithm, such as {@code fedavg}
 */
public record LearningProcess(
    String name, Computation initialize, Computation next, Computation evaluate) {
  public LearningProcess {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(initialize, "initialize");
    Objects.requireNonNull(next, "next");
    Objects.requireNonNull(evaluate, "evaluate");
  }
}
