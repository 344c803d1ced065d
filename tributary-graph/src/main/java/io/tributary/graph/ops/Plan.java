package io.tributary.graph.ops;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.Op;
import io.tributary.graph.Variable;
import io.tributary.graph.VariableKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The ops that compute some outputs, in order, with every variable resolved to a slot of a value
 * array, so a run does no name lookups. Immutable; the mutable state of a run lives in the
 * caller's arrays.
 */
final class Plan {
  /**
   * One op: where its inputs are read from and its outputs written to, and, for the two halves
   * of a paired sparse cross-entropy, the index of the {@link SoftmaxRows} they share (else -1).
   */
  record Step(Op op, OpDef def, int[] in, int[] out, Variable[] outVars, int[] release,
      int shared) {}

  private final Step[] steps;
  /** The placeholders and trainable parameters the steps read, and their slots. */
  private final Variable[] needed;
  private final int[] neededSlots;
  private final int[] outputSlots;
  /** The constants, by slot; every other slot is null. */
  private final NdArray[] template;
  /** How many {@link SoftmaxRows} a run needs: one per paired cross-entropy. */
  private final int sharedCount;
  private final Accumulations accumulations;
  /** The kernel of the plan's matrix products. */
  private final GemmKernel gemm;

  private Plan(Step[] steps, Variable[] needed, int[] neededSlots, int[] outputSlots,
      NdArray[] template, int sharedCount, Accumulations accumulations, GemmKernel gemm) {
    this.steps = steps;
    this.gemm = gemm;
    this.accumulations = accumulations;
    this.sharedCount = sharedCount;
    this.needed = needed;
    this.neededSlots = neededSlots;
    this.outputSlots = outputSlots;
    this.template = template;
  }

  Step[] steps() {
    return steps;
  }

  Variable[] needed() {
    return needed;
  }

  int[] neededSlots() {
    return neededSlots;
  }

  int[] outputSlots() {
    return outputSlots;
  }

  /** A fresh value array holding the constants. */
  NdArray[] newValues() {
    return template.clone();
  }

  /** How many accumulations are fused into a product (for tests). */
  int fusedCount() {
    return accumulations.fusedCount();
  }

  /** How many accumulations are one-pass FedProx updates (for tests). */
  int proximalCount() {
    return accumulations.proximalCount();
  }

  /** Plans the ops that compute {@code outputs} in {@code graph} (validated), on the default. */
  static Plan of(Graph graph, List<String> outputs, Map<String, NdArray> constants) {
    return of(graph, outputs, List.of(), constants, GemmKernel.DEFAULT);
  }

  /**
   * Plans the ops that compute {@code outputs} and the values of {@code accumulations} in {@code
   * graph} (validated; the accumulations checked by {@link GraphExecutor#compile}). Only a run that
   * keeps its arrays ({@link CompiledRun}) may take accumulations: the fused products run last,
   * and the plan releases nothing early for them.
   */
  static Plan of(Graph graph, List<String> outputs, List<Accumulation> accumulations,
      Map<String, NdArray> constants, GemmKernel gemm) {
    return of(graph, outputs, accumulations, constants, gemm, true);
  }

  /**
   * As {@link #of(Graph, List, List, Map, GemmKernel)}; with {@code fuse} false every op runs on
   * its own ({@link Fusions} not applied), the reference the fused plans are tested against.
   */
  static Plan of(Graph graph, List<String> outputs, List<Accumulation> accumulations,
      Map<String, NdArray> constants, GemmKernel gemm, boolean fuse) {
    Map<String, Op> writer = new HashMap<>();
    for (Op op : graph.ops()) {
      for (String o : op.outputs()) {
        writer.put(o, op);
      }
    }
    Set<String> wanted = new HashSet<>();
    ArrayList<String> stack = new ArrayList<>();
    for (String o : outputs) {
      graph.requireVariable(o);
      stack.add(o);
    }
    for (Accumulation a : accumulations) {
      stack.add(a.output());
      stack.add(a.target());
    }
    Set<Op> neededOps = new HashSet<>();
    List<Variable> needed = new ArrayList<>();
    while (!stack.isEmpty()) {
      String name = stack.remove(stack.size() - 1);
      if (!wanted.add(name)) {
        continue;
      }
      Op w = writer.get(name);
      if (w != null) {
        if (neededOps.add(w)) {
          stack.addAll(w.inputs());
        }
      } else {
        Variable v = graph.requireVariable(name);
        if (v.kind() == VariableKind.PLACEHOLDER || v.kind() == VariableKind.TRAINABLE) {
          needed.add(v);
        }
      }
    }
    List<Op> order = new ArrayList<>();
    for (Op op : graph.topologicalOrder()) {
      if (neededOps.contains(op)) {
        order.add(op);
      }
    }
    // Element-wise pairs become one pass each (Fusions); a value someone asked for stays.
    Set<String> keep = new HashSet<>(outputs);
    for (Accumulation a : accumulations) {
      keep.add(a.output());
      keep.add(a.target());
    }
    Map<String, NdArray> values = new HashMap<>(constants);
    if (fuse) {
      Folding.Folded folded = Folding.fold(graph, order, constants, keep, gemm);
      values.putAll(folded.values());
      order = Fusions.fuse(graph, folded.order(), keep);
      // What folding left unread (the forward ops of a loss only its seed read) is not fed.
      Set<String> read = new HashSet<>(keep);
      for (Op op : order) {
        read.addAll(op.inputs());
      }
      needed.removeIf(v -> !read.contains(v.name()));
    }
    // FedProx updates run as one pass each, after the steps; their chains' ops leave the plan.
    Map<Accumulation, ProximalUpdate.Match> proximal = fuse
        ? ProximalUpdate.find(graph, order, outputs, accumulations) : Map.of();
    for (ProximalUpdate.Match m : proximal.values()) {
      order.removeAll(m.chain());
    }
    Map<Op, Accumulation> fusions = Accumulations.fusible(order, writer, outputs, accumulations);
    // The fused products move to the end, after every op that reads a target; nothing else reads
    // their results, so no op needs them earlier.
    order.removeAll(fusions.keySet());
    order.addAll(fusions.keySet());
    Map<String, Integer> slots = new HashMap<>();
    for (String name : wanted) {
      slots.put(name, slots.size());
    }
    NdArray[] template = new NdArray[slots.size()];
    for (Map.Entry<String, Integer> e : slots.entrySet()) {
      template[e.getValue()] = values.get(e.getKey());
    }
    Map<String, Integer> lastUse = new HashMap<>();
    for (int i = 0; i < order.size(); i++) {
      for (String in : order.get(i).inputs()) {
        lastUse.put(in, i);
      }
    }
    Step[] steps = new Step[order.size()];
    for (int i = 0; i < steps.length; i++) {
      Op op = order.get(i);
      List<Integer> release = new ArrayList<>();
      for (String in : new HashSet<>(op.inputs())) {
        Variable v = graph.requireVariable(in);
        if (lastUse.get(in) == i && v.kind() == VariableKind.ARRAY && !outputs.contains(in)) {
          release.add(slots.get(in));
        }
      }
      steps[i] = step(graph, op, slots, release.stream().mapToInt(Integer::intValue).toArray());
    }
    Map<Accumulation, ProximalUpdate> updates = new java.util.LinkedHashMap<>();
    for (Map.Entry<Accumulation, ProximalUpdate.Match> e : proximal.entrySet()) {
      Step[] chain = e.getValue().chain().stream().map(op -> step(graph, op, slots, new int[0]))
          .toArray(Step[]::new);
      updates.put(e.getKey(), new ProximalUpdate(e.getValue(), chain, slots));
    }
    Step[] plain = Arrays.copyOf(steps, steps.length - fusions.size());
    Accumulations acc = Accumulations.of(Arrays.copyOfRange(steps, plain.length, steps.length),
        fusions, accumulations, slots, updates);
    int sharedCount = pairCrossEntropies(plain);
    int[] neededSlots = needed.stream().mapToInt(v -> slots.get(v.name())).toArray();
    int[] outputSlots = outputs.stream().mapToInt(slots::get).toArray();
    return new Plan(plain, needed.toArray(new Variable[0]), neededSlots, outputSlots, template,
        sharedCount, acc, gemm);
  }

  /** The step of {@code op}, reading and writing {@code slots}, releasing {@code release}. */
  private static Step step(Graph graph, Op op, Map<String, Integer> slots, int[] release) {
    int[] inSlots = op.inputs().stream().mapToInt(slots::get).toArray();
    int[] outSlots = new int[op.outputs().size()];
    Variable[] outVars = new Variable[outSlots.length];
    for (int k = 0; k < outSlots.length; k++) {
      String o = op.outputs().get(k);
      outVars[k] = graph.requireVariable(o);
      // An output that nothing asked for has no slot: it is computed and dropped.
      outSlots[k] = slots.getOrDefault(o, -1);
    }
    OpDef def = Fusions.def(op.type())
        .orElseGet(() -> OpRegistry.standard().find(op.type()).orElseThrow());
    return new Step(op, def, inSlots, outSlots, outVars, release, -1);
  }

  /**
   * Pairs each {@code sparse_softmax_cross_entropy} with a later
   * {@code sparse_softmax_cross_entropy_grad} on the same logits and labels slots, so the
   * gradient reuses the loss's exponentials. Slots are written once per run, so the logits do not
   * change between the two. Returns the number of pairs.
   */
  private static int pairCrossEntropies(Step[] steps) {
    int pairs = 0;
    boolean[] taken = new boolean[steps.length];
    for (int a = 0; a < steps.length; a++) {
      if (!steps[a].op().type().equals("sparse_softmax_cross_entropy")) {
        continue;
      }
      for (int b = a + 1; b < steps.length; b++) {
        Step g = steps[b];
        if (!taken[b] && g.op().type().equals("sparse_softmax_cross_entropy_grad")
            && g.in()[1] == steps[a].in()[0] && g.in()[2] == steps[a].in()[1]) {
          steps[a] = withShared(steps[a], pairs);
          steps[b] = withShared(g, pairs);
          taken[b] = true;
          pairs++;
          break;
        }
      }
    }
    return pairs;
  }

  private static Step withShared(Step s, int index) {
    return new Step(s.op(), s.def(), s.in(), s.out(), s.outVars(), s.release(), index);
  }

  /** A fresh set of the per-run buffers that paired cross-entropies share. */
  SoftmaxRows[] newShared() {
    SoftmaxRows[] t = new SoftmaxRows[sharedCount];
    for (int i = 0; i < t.length; i++) {
      t[i] = new SoftmaxRows();
    }
    return t;
  }

  /**
   * Runs the steps on {@code env}, which holds the constants and the needed values.
   *
   * @param previous when not null, the arrays each step returned last time (by step, then
   *     output), offered to the kernels for reuse and updated with this run's owned outputs;
   *     when null nothing is reused and intermediates are dropped after their last use
   * @param accepted the last shape each step's outputs were checked against (by step, then
   *     output), so a repeated shape is not checked again; updated
   * @param shared the buffers of {@link #newShared}, or null to run every op on its own
   */
  void execute(NdArray[] env, NdArray[][] previous, int[][][] accepted, SoftmaxRows[] shared) {
    execute(env, previous, accepted, shared, null);
  }

  /**
   * As {@link #execute(NdArray[], NdArray[][], int[][][], SoftmaxRows[])}, gathering each step's
   * inputs into {@code inputs[step]} (from {@link #newInputs}) instead of a new array; null for new
   * arrays. Kernels read their input array only during the call.
   */
  void execute(NdArray[] env, NdArray[][] previous, int[][][] accepted, SoftmaxRows[] shared,
      NdArray[][] inputs) {
    execute(env, previous, accepted, shared, inputs, null, null);
  }

  /**
   * As {@link #execute(NdArray[], NdArray[][], int[][][], SoftmaxRows[], NdArray[][])}, keeping a
   * second set of each step's arrays in {@code spare} (from {@link #newPrevious}, or null): when a
   * step's first input changes shape from the last run ({@code lastShape[step]}, updated), the
   * two sets trade places before the kernel runs, so batches that alternate between two sizes (an
   * epoch's smaller last batch) find their arrays instead of allocating new ones. A kernel still
   * takes an offered array only where its shape fits, so a wrong guess only allocates.
   */
  void execute(NdArray[] env, NdArray[][] previous, int[][][] accepted, SoftmaxRows[] shared,
      NdArray[][] inputs, NdArray[][] spare, int[][] lastShape) {
    for (int s = 0; s < steps.length; s++) {
      Step step = steps[s];
      NdArray[] in = inputs == null ? inputs(step, env) : gather(step, env, inputs[s]);
      if (spare != null && in.length > 0) {
        int[] shape = in[0].shapeRef();
        if (lastShape[s] != shape && !Arrays.equals(lastShape[s], shape)) {
          if (lastShape[s] != null) {
            NdArray[] t = previous[s];
            previous[s] = spare[s];
            spare[s] = t;
          }
          lastShape[s] = shape;
        }
      }
      NdArray[] out = run(step, in, previous == null ? null : previous[s], shared, gemm);
      for (int k = 0; k < out.length; k++) {
        int[] seen = accepted[s][k];
        // The array this step returned last time, written again, has the shape checked then.
        boolean same = previous != null && out[k] == previous[s][k] && seen != null;
        if (!same && (seen == null || out[k].dtype() != step.outVars()[k].dtype()
            || !Arrays.equals(seen, out[k].shapeRef()))) {
          checkOutput(step, k, out[k]);
          accepted[s][k] = out[k].shape();
        }
        if (step.out()[k] >= 0) {
          env[step.out()[k]] = out[k];
        }
        // An array the step returned and kept last time is still its own: fed arrays that could
        // share its storage were forgotten when they were fed (CompiledRun).
        if (previous != null && !same) {
          previous[s][k] = owned(out[k], in) ? out[k] : null;
        }
      }
      if (previous == null) {
        for (int r : step.release()) {
          env[r] = null;
        }
      }
    }
  }

  /**
   * Runs one step's kernel, offering it {@code previous} (null for none) and the shared
   * exponentials (null to run a paired cross-entropy on its own), its matrix products on {@code
   * gemm}.
   */
  static NdArray[] run(Step step, NdArray[] in, NdArray[] previous,
      SoftmaxRows[] shared, GemmKernel gemm) {
    try {
      if (shared != null && step.shared() >= 0 && step.def() instanceof CrossEntropyOp ce) {
        return ce.computeShared(step.op(), in, previous, shared[step.shared()]);
      }
      return step.def().compute(step.op(), in, previous, gemm);
    } catch (IllegalArgumentException | ArithmeticException e) {
      Op op = step.op();
      throw new GraphExecutionException("op '" + op.name() + "' (" + op.type() + ") failed on "
          + NdArray.describe(Arrays.asList(in)) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Adds every accumulation onto its target in {@code env}, after {@link #execute}, the products'
   * inputs gathered into {@code scratch} (from {@link #newAccumulationInputs}); rank-one products
   * are left to {@code deferred} unless it is null ({@link Accumulations#apply}).
   */
  void accumulate(NdArray[] env, NdArray[][] scratch, java.util.List<RankOneUpdate> deferred) {
    accumulations.apply(env, gemm, scratch, deferred);
  }

  /** A fresh table of the accumulated products' input arrays for {@link #accumulate}. */
  NdArray[][] newAccumulationInputs() {
    return accumulations.newScratch();
  }

  /** The values a step reads, from their slots, in a new array. */
  static NdArray[] inputs(Step step, NdArray[] env) {
    return gather(step, env, new NdArray[step.in().length]);
  }

  /** The values a step reads, from their slots, written into {@code into}. */
  static NdArray[] gather(Step step, NdArray[] env, NdArray[] into) {
    int[] slots = step.in();
    for (int i = 0; i < into.length; i++) {
      into[i] = env[slots[i]];
    }
    return into;
  }

  /** A fresh table of per-step input arrays for {@link #execute}. */
  NdArray[][] newInputs() {
    NdArray[][] t = new NdArray[steps.length][];
    for (int s = 0; s < steps.length; s++) {
      t[s] = new NdArray[steps[s].in().length];
    }
    return t;
  }

  /**
   * A fresh table of per-step, per-output entries for {@link #execute}, followed, for an op that
   * keeps work buffers, by its slots for them ({@link BaseOp#workspaces()}).
   */
  NdArray[][] newPrevious() {
    NdArray[][] t = new NdArray[steps.length][];
    for (int s = 0; s < steps.length; s++) {
      int work = steps[s].def() instanceof BaseOp b ? b.workspaces() : 0;
      t[s] = new NdArray[steps[s].out().length + work];
    }
    return t;
  }

  /** A fresh table of accepted shapes for {@link #execute}. */
  int[][][] newAccepted() {
    int[][][] t = new int[steps.length][][];
    for (int s = 0; s < steps.length; s++) {
      t[s] = new int[steps[s].out().length][];
    }
    return t;
  }

  /** True when {@code out} was allocated by its kernel, not a view of one of the inputs. */
  private static boolean owned(NdArray out, NdArray[] in) {
    for (NdArray a : in) {
      if (a.sharesStorage(out)) {
        return false;
      }
    }
    return true;
  }

  /** Throws when output {@code k} of {@code step}, {@code a}, does not fit its variable. */
  private static void checkOutput(Step step, int k, NdArray a) {
    Variable v = step.outVars()[k];
    // The message is built only on failure: shapes change every epoch (a last, smaller batch).
    if (!fits(v, a)) {
      throw misfit(v, a, "op '" + step.op().name() + "' computed a value that does not fit");
    }
  }

  private static boolean fits(Variable v, NdArray a) {
    if (a.dtype() != v.dtype()) {
      return false;
    }
    // PartialShape.accepts, read off the array's dimensions without building a Shape: this runs
    // whenever a step's output shape changes (twice an epoch, around a smaller last batch).
    io.tributary.graph.PartialShape want = v.shape();
    int[] dims = a.shapeRef();
    if (want.rank() != dims.length) {
      return false;
    }
    for (int i = 0; i < dims.length; i++) {
      if (want.dim(i) != io.tributary.graph.PartialShape.UNKNOWN && want.dim(i) != dims[i]) {
        return false;
      }
    }
    return true;
  }

  /** Throws when {@code a} does not have {@code v}'s dtype or fit its shape. */
  static void checkFits(Variable v, NdArray a, String what) {
    if (!fits(v, a)) {
      throw misfit(v, a, what);
    }
  }

  private static GraphExecutionException misfit(Variable v, NdArray a, String what) {
    return new GraphExecutionException(what + " '" + v.name() + "': expected " + v.dtype()
        + v.shape() + ", got " + a.dtype() + Arrays.toString(a.shape()));
  }

  static GraphExecutionException missing(Variable v) {
    return new GraphExecutionException("no value given for "
        + v.kind().name().toLowerCase(Locale.ROOT) + " '" + v.name() + "'");
  }
}
