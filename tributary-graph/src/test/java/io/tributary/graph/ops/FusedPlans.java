package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.Graph;
import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.autodiff.GradientGraph;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.models.Model;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What the tests of fused plans share: a model's SGD training step, with or without FedProx's
 * proximal term, its plans with and without fusion, and a bit-for-bit comparison of their values.
 */
final class FusedPlans {
  private FusedPlans() {}

  /**
   * A training step: its graph, the feeds (the anchors when it has a proximal term, then the
   * parameters, the input and the labels), its one output (the model's loss), plain SGD at
   * learning rate 0.01, and the value it differentiates (the loss, or the loss plus the proximal
   * term).
   */
  record Step(Graph graph, Model model, List<String> feeds, List<String> outputs,
      List<Accumulation> sgd, String objective) {
    /** The step's plan with fusion, as a compiled run. */
    CompiledRun fused() {
      return new CompiledRun(plan(true), feeds, outputs);
    }

    /** The step's plan running every op of the graph as a step of its own. */
    CompiledRun unfused() {
      return new CompiledRun(plan(false), feeds, outputs);
    }

    Plan plan(boolean fuse) {
      return Plan.of(graph, outputs, sgd, Map.of(), GemmKernel.DEFAULT, fuse);
    }
  }

  /** The step of {@code model}'s loss, plus FedProx's proximal term when {@code mu > 0}. */
  static Step step(Model model, double mu) {
    Graph graph = mu > 0 ? LocalTraining.withProximalTerm(model, mu) : model.graph();
    String objective = mu > 0 ? LocalTraining.OBJECTIVE : model.loss();
    GradientGraph grads = Autodiff.gradients(graph, objective, model.trainableNames());
    List<Accumulation> sgd = new ArrayList<>();
    List<String> feeds = new ArrayList<>();
    for (String p : model.trainableNames()) {
      sgd.add(new Accumulation(grads.gradientOf(p), p, -0.01));
      if (mu > 0) {
        feeds.add(LocalTraining.ANCHOR_PREFIX + p);
      }
    }
    feeds.addAll(model.trainableNames());
    feeds.add(model.input());
    feeds.add(model.labels());
    return new Step(grads.graph(), model, feeds, List.of(model.loss()), sgd, objective);
  }

  /** The op types of {@code plan}'s steps, in order. */
  static List<String> types(Plan plan) {
    return Arrays.stream(plan.steps()).map(s -> s.op().type()).toList();
  }

  /**
   * The same shape and bits, every NaN counted as one value: which NaN payload an operation on two
   * NaNs keeps depends on the operand order the JIT picks, fused or not.
   *
   * @param what names the value in the failure, which also gives the element and both values
   */
  static void assertSameBits(NdArray fused, NdArray unfused, String what) {
    assertThat(fused.shape()).as(what).containsExactly(unfused.shape());
    float[] x = fused.floats();
    float[] y = unfused.floats();
    for (int i = 0; i < x.length; i++) {
      if (Float.floatToIntBits(x[i]) != Float.floatToIntBits(y[i])) {
        throw new AssertionError(what + ", element " + i + " of " + Arrays.toString(fused.shape())
            + ": " + x[i] + " (fused) vs " + y[i] + " (unfused)");
      }
    }
  }
}
