package io.tributary.graph.ops;

import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.Op;
import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@link Accumulation}s of a {@link Plan}, resolved to slots: which are fused into the
 * product that computes their value, which are FedProx updates done in one pass ({@link
 * ProximalUpdate}), which are added after the steps, and the run-time phase that applies them.
 * Immutable.
 */
final class Accumulations {
  /**
   * An {@link Accumulation} fused into the matrix product that computes its value: the product
   * is added straight onto the array in slot {@code target}.
   */
  record Fused(Plan.Step step, int target, double scale, String what) {}

  /** An {@link Accumulation} done after the steps: slot {@code value}, scaled, onto {@code target}. */
  record Added(int value, int target, double scale, String what) {}

  private final Fused[] fused;
  private final Added[] added;
  private final ProximalUpdate[] proximal;
  /** The slots of every accumulation's target. */
  private final int[] targetSlots;

  private Accumulations(Fused[] fused, Added[] added, ProximalUpdate[] proximal) {
    this.fused = fused;
    this.added = added;
    this.proximal = proximal;
    this.targetSlots = new int[fused.length + added.length + proximal.length];
    for (int i = 0; i < fused.length; i++) {
      targetSlots[i] = fused[i].target();
    }
    for (int i = 0; i < added.length; i++) {
      targetSlots[fused.length + i] = added[i].target();
    }
    for (int i = 0; i < proximal.length; i++) {
      targetSlots[fused.length + added.length + i] = proximal[i].target();
    }
  }

  /**
   * Resolves {@code accumulations} to slots.
   *
   * @param fusedSteps the planned steps of the products in {@code fusions}, in its order
   * @param fusions the accumulations fused into a product, by that product's op (see {@link
   *     #fusible})
   * @param proximal the accumulations done as one-pass FedProx updates
   */
  static Accumulations of(Plan.Step[] fusedSteps, Map<Op, Accumulation> fusions,
      List<Accumulation> accumulations, Map<String, Integer> slots,
      Map<Accumulation, ProximalUpdate> proximal) {
    Fused[] fused = new Fused[fusedSteps.length];
    int f = 0;
    for (Accumulation a : fusions.values()) {
      fused[f] = new Fused(fusedSteps[f], slots.get(a.target()), a.scale(), describe(a));
      f++;
    }
    List<Added> added = new ArrayList<>();
    for (Accumulation a : accumulations) {
      if (!fusions.containsValue(a) && !proximal.containsKey(a)) {
        added.add(new Added(slots.get(a.output()), slots.get(a.target()), a.scale(), describe(a)));
      }
    }
    return new Accumulations(fused, added.toArray(new Added[0]),
        proximal.values().toArray(new ProximalUpdate[0]));
  }

  int fusedCount() {
    return fused.length;
  }

  int proximalCount() {
    return proximal.length;
  }

  private static String describe(Accumulation a) {
    return Accumulation.describe(a.output(), a.target());
  }

  /**
   * The accumulations whose value a matmul computes that no op, output or other accumulation
   * reads, and whose operands are not targets, by that matmul in plan order: those can be added
   * onto their target by the product itself.
   */
  static Map<Op, Accumulation> fusible(List<Op> order, Map<String, Op> writer,
      List<String> outputs, List<Accumulation> accumulations) {
    Set<String> read = new HashSet<>(outputs);
    for (Op op : order) {
      read.addAll(op.inputs());
    }
    Set<String> targets = new HashSet<>();
    Map<String, Integer> uses = new HashMap<>();
    for (Accumulation a : accumulations) {
      targets.add(a.target());
      uses.merge(a.output(), 1, Integer::sum);
    }
    Map<Op, Accumulation> byOp = new HashMap<>();
    for (Accumulation a : accumulations) {
      Op w = writer.get(a.output());
      if (w != null && w.type().equals("matmul") && w.outputs().size() == 1
          && !read.contains(a.output()) && uses.get(a.output()) == 1
          && w.inputs().stream().noneMatch(targets::contains)) {
        byOp.put(w, a);
      }
    }
    Map<Op, Accumulation> inOrder = new LinkedHashMap<>();
    for (Op op : order) {
      Accumulation a = byOp.get(op);
      if (a != null) {
        inOrder.put(op, a);
      }
    }
    return inOrder;
  }

  /**
   * Adds every accumulation onto its target in {@code env}, after the plan's steps have run.
   * Every value is read before any target changes: a value or operand that shares storage with a
   * target (a reshaped parameter, a parameter fed twice) is first computed or copied apart.
   *
   * <p>With {@code deferred} not null, a fused product over one step of k whose target no other
   * accumulation updates is not applied but added to {@code deferred} ({@link
   * MatMulOp#rankOne}), its target left as it was.
   *
   * @param scratch from {@link #newScratch}: each product's inputs are gathered there
   * @param deferred where rank-one products are left, or null to apply every accumulation
   * @throws GraphExecutionException when a value does not match its target's dtype and shape
   */
  void apply(NdArray[] env, GemmKernel gemm, NdArray[][] scratch,
      List<RankOneUpdate> deferred) {
    // The usual case (no value or operand shares a target's storage) allocates nothing: this
    // runs once per training step.
    boolean apart = true;
    for (Fused f : fused) {
      apart &= !readsTarget(f.step().in(), env);
    }
    for (Added a : added) {
      apart &= !readsTarget(a.value(), env);
    }
    for (ProximalUpdate u : proximal) {
      apart &= !readsTarget(u.reads(), env) && !sharesAnotherTarget(u.target(), env);
    }
    if (!apart) {
      applyApart(env, gemm);
      return;
    }
    for (int i = 0; i < fused.length; i++) {
      Plan.Step step = fused[i].step();
      NdArray[] in = Plan.gather(step, env, scratch[i]);
      if (deferred != null && targetOnce(fused[i].target())) {
        RankOneUpdate u = MatMulOp.rankOne(step.op(), in, fused[i].scale(), env[fused[i].target()]);
        if (u != null) {
          deferred.add(u);
          continue;
        }
      }
      product(fused[i], in, env, gemm);
    }
    for (Added a : added) {
      addScaled(env[a.target()], a.scale(), env[a.value()], a.what());
    }
    for (ProximalUpdate u : proximal) {
      u.apply(env, gemm);
    }
  }

  /** Whether no accumulation but one updates the target in {@code slot}. */
  private boolean targetOnce(int slot) {
    int n = 0;
    for (int t : targetSlots) {
      n += t == slot ? 1 : 0;
    }
    return n == 1;
  }

  /** A fresh table of per-product input arrays for {@link #apply}. */
  NdArray[][] newScratch() {
    NdArray[][] t = new NdArray[fused.length][];
    for (int i = 0; i < fused.length; i++) {
      t[i] = new NdArray[fused[i].step().in().length];
    }
    return t;
  }

  /** As {@link #apply}, where some value or operand shares storage with a target. */
  private void applyApart(NdArray[] env, GemmKernel gemm) {
    NdArray[] early = new NdArray[fused.length];
    for (int i = 0; i < fused.length; i++) {
      Plan.Step step = fused[i].step();
      if (readsTarget(step.in(), env)) {
        early[i] = Plan.run(step, Plan.inputs(step, env), null, null, gemm)[0];
      }
    }
    NdArray[] values = new NdArray[added.length];
    for (int i = 0; i < added.length; i++) {
      NdArray v = env[added[i].value()];
      values[i] = readsTarget(added[i].value(), env) ? v.copy() : v;
    }
    // The proximal values computed by their own ops, as a plan without them would.
    NdArray[] proximalValues = new NdArray[proximal.length];
    for (int i = 0; i < proximal.length; i++) {
      NdArray v = proximal[i].value(env, gemm);
      proximalValues[i] = targetShares(v, env) ? v.copy() : v;
    }
    for (int i = 0; i < fused.length; i++) {
      Fused f = fused[i];
      if (early[i] != null) {
        addScaled(env[f.target()], f.scale(), early[i], f.what());
      } else {
        product(f, Plan.inputs(f.step(), env), env, gemm);
      }
    }
    for (int i = 0; i < added.length; i++) {
      addScaled(env[added[i].target()], added[i].scale(), values[i], added[i].what());
    }
    for (int i = 0; i < proximal.length; i++) {
      addScaled(env[proximal[i].target()], proximal[i].scale(), proximalValues[i],
          proximal[i].what());
    }
  }

  /** Adds {@code f}'s product of {@code in} onto its target. */
  private static void product(Fused f, NdArray[] in, NdArray[] env, GemmKernel gemm) {
    NdArray target = env[f.target()];
    Plan.Step step = f.step();
    try {
      MatMulOp.accumulate(gemm, step.op(), in, f.scale(), target);
    } catch (IllegalArgumentException e) {
      throw new GraphExecutionException(f.what() + ": op '" + step.op().name()
          + "' (matmul) failed on " + NdArray.describe(Arrays.asList(in)) + " onto " + target
          + ": " + e.getMessage(), e);
    }
  }

  /** Whether the value in any of {@code slots} shares storage with a target. */
  private boolean readsTarget(int[] slots, NdArray[] env) {
    for (int s : slots) {
      if (readsTarget(s, env)) {
        return true;
      }
    }
    return false;
  }

  private boolean readsTarget(int slot, NdArray[] env) {
    return targetShares(env[slot], env);
  }

  private boolean targetShares(NdArray a, NdArray[] env) {
    for (int t : targetSlots) {
      if (a.sharesStorage(env[t])) {
        return true;
      }
    }
    return false;
  }

  /** Whether the array in target slot {@code slot} shares storage with another target's. */
  private boolean sharesAnotherTarget(int slot, NdArray[] env) {
    for (int t : targetSlots) {
      if (t != slot && env[slot].sharesStorage(env[t])) {
        return true;
      }
    }
    return false;
  }

  /** {@code target += scale * value}, elementwise; both floating, of one dtype and shape. */
  static void addScaled(NdArray target, double scale, NdArray value, String what) {
    if (target.dtype() != value.dtype() || !target.isFloating()
        || !Arrays.equals(target.shapeRef(), value.shapeRef())) {
      throw new GraphExecutionException(what + ": the value is " + value + " but the target is "
          + target);
    }
    if (target.dtype() == DType.FLOAT32) {
      float[] t = target.floats();
      float[] v = value.floats();
      float s = (float) scale;
      for (int i = 0; i < t.length; i++) {
        t[i] += s * v[i];
      }
    } else {
      double[] t = target.doubles();
      double[] v = value.doubles();
      for (int i = 0; i < t.length; i++) {
        t[i] += scale * v[i];
      }
    }
  }
}
