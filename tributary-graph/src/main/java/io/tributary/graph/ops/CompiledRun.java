package io.tributary.graph.ops;

import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.Variable;
import java.util.Arrays;
import java.util.List;

/**
 * One set of outputs of a graph, planned once and run many times on values given by position:
 * the form a training loop runs each step in. Made by {@link GraphExecutor#compile}.
 *
 * <p>Unlike {@link GraphExecutor#run}, a compiled run keeps the arrays its ops computed and lets
 * each op write the next run's result into the same array when the shape repeats, so a loop over
 * equal-sized batches stops allocating. The arrays {@link #run} returns therefore stay valid only
 * until the next call. Feeding one of them back in is safe: a run never writes into an array it
 * was fed, except the targets of its {@link Accumulation}s, which it updates in place after every
 * op has read them. Not thread-safe: each thread takes its own with {@link #fresh()}, or keeps
 * one from call to call with {@link ThreadRuns}.
 */
public final class CompiledRun {
  private final Plan plan;
  private final List<String> feeds;
  private final List<String> outputs;
  /** For each needed variable, its position among the feeds. */
  private final int[] feedIndex;
  private final NdArray[] env;
  private final NdArray[][] previous;
  private final int[][][] accepted;
  private final SoftmaxRows[] shared;
  private final NdArray[][] inputs;
  private final NdArray[][] accumulationInputs;
  /** Each step's arrays for the other of two alternating batch shapes ({@link Plan#execute}). */
  private final NdArray[][] spare;
  /** The shape of each step's first input in the last run. */
  private final int[][] lastShape;
  /** The last shape each needed value was checked against, by needed index. */
  private final int[][] feedAccepted;
  /** The array fed for each needed variable in the last run, by needed index. */
  private final NdArray[] lastFed;

  CompiledRun(Plan plan, List<String> feeds, List<String> outputs) {
    this.plan = plan;
    this.feeds = feeds;
    this.outputs = outputs;
    Variable[] needed = plan.needed();
    this.feedIndex = new int[needed.length];
    for (int i = 0; i < needed.length; i++) {
      feedIndex[i] = feeds.indexOf(needed[i].name());
      if (feedIndex[i] < 0) {
        throw Plan.missing(needed[i]);
      }
    }
    this.env = plan.newValues();
    this.previous = plan.newPrevious();
    this.accepted = plan.newAccepted();
    this.shared = plan.newShared();
    this.inputs = plan.newInputs();
    this.accumulationInputs = plan.newAccumulationInputs();
    this.spare = plan.newPrevious();
    this.lastShape = new int[plan.steps().length][];
    this.feedAccepted = new int[needed.length][];
    this.lastFed = new NdArray[needed.length];
  }

  /**
   * A new run of the same plan with arrays of its own. It reads only this run's immutable plan,
   * so one compiled run can serve as the template that threads take their own runs from.
   */
  public CompiledRun fresh() {
    return new CompiledRun(plan, feeds, outputs);
  }

  /** The feeds, in the order {@link #run} takes their values. */
  public List<String> feeds() {
    return feeds;
  }

  /** The outputs, in the order {@link #run} returns them. */
  public List<String> outputs() {
    return outputs;
  }

  /**
   * Computes the outputs from the feeds' values.
   *
   * @param values one value per feed, in {@link #feeds()} order; only the accumulations' targets
   *     are modified
   * @return the outputs in {@link #outputs()} order, valid until the next call
   * @throws GraphExecutionException when a value is missing or of the wrong dtype or shape, or an
   *     op fails (naming the op)
   */
  public NdArray[] run(NdArray... values) {
    return run(null, values);
  }

  /**
   * As {@link #run}, except that an accumulation fused into a product over one step of k (the
   * weight update of a step over one example), whose target no other accumulation updates, is
   * not applied: it is added to {@code deferred} ({@link RankOneUpdate}) and its target left as
   * it was fed. The caller applies it ({@link RankOneUpdate#applyTo}) or reads the change it makes
   * where it is used; the other accumulations are applied as by {@link #run}.
   */
  public NdArray[] runDeferringRankOne(List<RankOneUpdate> deferred, NdArray... values) {
    return run(java.util.Objects.requireNonNull(deferred, "deferred"), values);
  }

  private NdArray[] run(List<RankOneUpdate> deferred, NdArray[] values) {
    if (values.length != feeds.size()) {
      throw new GraphExecutionException("expected " + feeds.size() + " values for " + feeds
          + ", got " + values.length);
    }
    Variable[] needed = plan.needed();
    int[] slots = plan.neededSlots();
    for (int i = 0; i < needed.length; i++) {
      NdArray a = values[feedIndex[i]];
      if (a == null) {
        throw Plan.missing(needed[i]);
      }
      // The array fed last time (the weights, step after step) still has the shape checked then.
      if (a != lastFed[i] && (feedAccepted[i] == null || a.dtype() != needed[i].dtype()
          || !Arrays.equals(feedAccepted[i], a.shapeRef()))) {
        Plan.checkFits(needed[i], a, "value given for");
        feedAccepted[i] = a.shape();
      }
      env[slots[i]] = a;
      // The array fed here last time was already forgotten, and the arrays kept since are the
      // kernels' own, which never share storage with a fed value.
      if (lastFed[i] != a) {
        forgetShared(a);
        lastFed[i] = a;
      }
    }
    plan.execute(env, previous, accepted, shared, inputs, spare, lastShape);
    plan.accumulate(env, accumulationInputs, deferred);
    int[] out = plan.outputSlots();
    NdArray[] result = new NdArray[out.length];
    for (int k = 0; k < out.length; k++) {
      result[k] = env[out[k]];
    }
    return result;
  }

  /** How many accumulations this run adds inside a matrix product (for tests). */
  int fusedAccumulations() {
    return plan.fusedCount();
  }

  /** How many loss and gradient pairs share their exponentials in this run (for tests). */
  int sharedSoftmaxPairs() {
    return shared.length;
  }

  /** How many losses this run computes with their gradient in one fused op (for tests). */
  int fusedLosses() {
    int n = 0;
    for (Plan.Step s : plan.steps()) {
      n += s.op().type().equals(LossFusion.TYPE) ? 1 : 0;
    }
    return n;
  }

  /** Stops offering for reuse any array that shares storage with a fed value. */
  private void forgetShared(NdArray fed) {
    forgetShared(fed, previous);
    forgetShared(fed, spare);
  }

  private static void forgetShared(NdArray fed, NdArray[][] kept) {
    for (NdArray[] step : kept) {
      for (int k = 0; k < step.length; k++) {
        if (step[k] != null && step[k].sharesStorage(fed)) {
          step[k] = null;
        }
      }
    }
  }
}
