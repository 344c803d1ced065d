package io.tributary.core.computation;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Call;
import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.compiler.IntrinsicCatalogue;
import io.tributary.core.compiler.IntrinsicDef;
import io.tributary.core.compiler.Specialization;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import java.util.List;
import java.util.Optional;

/**
 * The federated operators, called on {@link Value}s while a computation is defined.
 *
 * <p>Every call is checked at once against the intrinsic's signature in {@link
 * IntrinsicCatalogue}; a misfit throws {@link DefinitionException} naming the intrinsic, the
 * expected and actual types and the calling line. Where an intrinsic expects a placed value and
 * gets a struct of values placed at one placement, the struct is zipped first
 * ({@code federated_zip_at_clients} or {@code _at_server}), as federated-language does.
 */
public final class Intrinsics {
  private Intrinsics() {}

  /** {@code federated_broadcast: T@SERVER -> T@CLIENTS}. */
  public static Value federatedBroadcast(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_BROADCAST, zipIfStruct(value));
  }

  /**
   * Applies {@code fn} member by member: {@code federated_map} for {@code {T}@CLIENTS},
   * {@code federated_map_all_equal} for {@code T@CLIENTS}, {@code federated_apply} for
   * {@code T@SERVER}, {@code federated_map_at_edges} for {@code {T}@EDGES} and {@code T@EDGES}.
   */
  public static Value federatedMap(Computation fn, Value value) {
    Value data = zipIfStruct(value);
    IntrinsicDef def = IntrinsicCatalogue.FEDERATED_MAP;
    if (data.type() instanceof FederatedType f) {
      if (f.placement().equals(Placement.SERVER)) {
        def = IntrinsicCatalogue.FEDERATED_APPLY;
      } else if (f.placement().equals(Placement.EDGES)) {
        def = IntrinsicCatalogue.FEDERATED_MAP_AT_EDGES;
      } else if (f.allEqual()) {
        def = IntrinsicCatalogue.FEDERATED_MAP_ALL_EQUAL;
      }
    }
    return apply(def, Values.tuple(fn.asValue(), data));
  }

  /** {@code federated_apply: <(T -> U),T@SERVER> -> U@SERVER}. */
  public static Value federatedApply(Computation fn, Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_APPLY, Values.tuple(fn.asValue(),
        zipIfStruct(value)));
  }

  /** {@code federated_sum: {T}@CLIENTS -> T@SERVER}, T numeric of fully defined shape. */
  public static Value federatedSum(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_SUM, zipIfStruct(value));
  }

  /** {@code federated_mean: {T}@CLIENTS -> T@SERVER}, T floating. */
  public static Value federatedMean(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_MEAN, zipIfStruct(value));
  }

  /** {@code federated_weighted_mean: <{T}@CLIENTS,{U}@CLIENTS> -> T@SERVER}. */
  public static Value federatedWeightedMean(Value value, Value weight) {
    return apply(IntrinsicCatalogue.FEDERATED_WEIGHTED_MEAN,
        Values.tuple(zipIfStruct(value), weight));
  }

  /** {@code federated_min: {T}@CLIENTS -> T@SERVER}. */
  public static Value federatedMin(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_MIN, zipIfStruct(value));
  }

  /** {@code federated_max: {T}@CLIENTS -> T@SERVER}. */
  public static Value federatedMax(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_MAX, zipIfStruct(value));
  }

  /**
   * {@code federated_aggregate: <{T}@CLIENTS,U,(<U,T> -> U),(<U,U> -> U),(U -> R)> -> R@SERVER}.
   */
  public static Value federatedAggregate(
      Value value, Value zero, Computation accumulate, Computation merge, Computation report) {
    return apply(IntrinsicCatalogue.FEDERATED_AGGREGATE, Values.tuple(zipIfStruct(value), zero,
        accumulate.asValue(), merge.asValue(), report.asValue()));
  }

  /** {@code federated_secure_sum: <{V}@CLIENTS,M> -> V@SERVER}. */
  public static Value federatedSecureSum(Value value, Value modulus) {
    return apply(IntrinsicCatalogue.FEDERATED_SECURE_SUM,
        Values.tuple(zipIfStruct(value), modulus));
  }

  /** {@code federated_secure_sum_bitwidth: <{V}@CLIENTS,B> -> V@SERVER}. */
  public static Value federatedSecureSumBitwidth(Value value, Value bitwidth) {
    return apply(IntrinsicCatalogue.FEDERATED_SECURE_SUM_BITWIDTH,
        Values.tuple(zipIfStruct(value), bitwidth));
  }

  /**
   * Zips a struct of values placed at one placement into one placed struct, with
   * {@code federated_zip_at_clients}, {@code federated_zip_at_edges} or
   * {@code federated_zip_at_server}.
   */
  public static Value federatedZip(Value struct) {
    Optional<Placement> p = leafPlacement(struct.type());
    IntrinsicDef def = p.isPresent() && p.get().equals(Placement.SERVER)
        ? IntrinsicCatalogue.FEDERATED_ZIP_AT_SERVER
        : p.isPresent() && p.get().equals(Placement.EDGES)
            ? IntrinsicCatalogue.FEDERATED_ZIP_AT_EDGES
            : IntrinsicCatalogue.FEDERATED_ZIP_AT_CLIENTS;
    return apply(def, struct);
  }

  /** {@code federated_value_at_clients: T -> T@CLIENTS} or {@code _at_server: T -> T@SERVER}. */
  public static Value federatedValue(Value value, Placement placement) {
    return apply(placement.equals(Placement.SERVER)
        ? IntrinsicCatalogue.FEDERATED_VALUE_AT_SERVER
        : requireClients(placement, IntrinsicCatalogue.FEDERATED_VALUE_AT_CLIENTS), value);
  }

  /**
   * {@code federated_eval_at_clients: (( -> T)) -> {T}@CLIENTS} or
   * {@code federated_eval_at_server: (( -> T)) -> T@SERVER}.
   */
  public static Value federatedEval(Computation fn, Placement placement) {
    return apply(placement.equals(Placement.SERVER)
        ? IntrinsicCatalogue.FEDERATED_EVAL_AT_SERVER
        : requireClients(placement, IntrinsicCatalogue.FEDERATED_EVAL_AT_CLIENTS),
        fn.asValue());
  }

  /**
   * {@code federated_select: <{Ks}@CLIENTS,int32@SERVER,T@SERVER,(<T,int32> -> U)> ->
   * {U*}@CLIENTS}.
   */
  public static Value federatedSelect(
      Value clientKeys, Value maxKey, Value serverState, Computation selectFn) {
    return apply(IntrinsicCatalogue.FEDERATED_SELECT,
        Values.tuple(clientKeys, maxKey, serverState, selectFn.asValue()));
  }

  /**
   * {@code federated_secure_select}: {@link #federatedSelect}'s signature, with keys meant to stay
   * private. Tributary's runtime selects in the clear (docs/federated-core.md).
   */
  public static Value federatedSecureSelect(
      Value clientKeys, Value maxKey, Value serverState, Computation selectFn) {
    return apply(IntrinsicCatalogue.FEDERATED_SECURE_SELECT,
        Values.tuple(clientKeys, maxKey, serverState, selectFn.asValue()));
  }

  /** {@code sequence_map: <(T -> U),T*> -> U*}. */
  public static Value sequenceMap(Computation fn, Value sequence) {
    return apply(IntrinsicCatalogue.SEQUENCE_MAP, Values.tuple(fn.asValue(), sequence));
  }

  /** {@code sequence_reduce: <T*,U,(<U,T> -> U)> -> U}. */
  public static Value sequenceReduce(Value sequence, Value zero, Computation op) {
    return apply(IntrinsicCatalogue.SEQUENCE_REDUCE, Values.tuple(sequence, zero, op.asValue()));
  }

  /** {@code sequence_sum: T* -> T}. */
  public static Value sequenceSum(Value sequence) {
    return apply(IntrinsicCatalogue.SEQUENCE_SUM, sequence);
  }

  /** {@code generic_plus: <T,T> -> T}. */
  public static Value genericPlus(Value a, Value b) {
    return apply(IntrinsicCatalogue.GENERIC_PLUS, Values.tuple(a, b));
  }

  /**
   * {@code generic_divide: <T,T> -> U}, element-wise true division; U keeps floating and complex
   * dtypes and turns 8- and 16-bit integers into {@code float32}, wider ones into {@code float64}.
   */
  public static Value genericDivide(Value a, Value b) {
    return apply(IntrinsicCatalogue.GENERIC_DIVIDE, Values.tuple(a, b));
  }

  /** {@code generic_multiply: <T,T> -> T}. */
  public static Value genericMultiply(Value a, Value b) {
    return apply(IntrinsicCatalogue.GENERIC_MULTIPLY, Values.tuple(a, b));
  }

  /** {@code generic_zero: T}, the zero of a numeric type of fully defined shape. */
  public static Value genericZero(Type type) {
    IntrinsicDef def = IntrinsicCatalogue.GENERIC_ZERO;
    Optional<Specialization.Failure> bad = def.checkInstance(type);
    if (bad.isPresent()) {
      throw fail(def.uri(), bad.get());
    }
    return new Value(new Intrinsic(def.uri(), type), type, null);
  }

  // ------------------------------------------------------------------ the EDGES tier

  /** {@code federated_broadcast_to_edges: T@SERVER -> T@EDGES}: every edge gets the value. */
  public static Value federatedBroadcastToEdges(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_BROADCAST_TO_EDGES, zipIfStruct(value));
  }

  /**
   * {@code federated_broadcast_from_edges: {T}@EDGES -> {T}@CLIENTS}: each client gets its
   * edge's value.
   */
  public static Value federatedBroadcastFromEdges(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_BROADCAST_FROM_EDGES, zipIfStruct(value));
  }

  /** {@code federated_sum_to_edges: {T}@CLIENTS -> {T}@EDGES}, each edge its clients' sum. */
  public static Value federatedSumToEdges(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_SUM_TO_EDGES, zipIfStruct(value));
  }

  /** {@code federated_mean_to_edges: {T}@CLIENTS -> {T}@EDGES}, T floating. */
  public static Value federatedMeanToEdges(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_MEAN_TO_EDGES, zipIfStruct(value));
  }

  /** {@code federated_weighted_mean_to_edges: <{T}@CLIENTS,{U}@CLIENTS> -> {T}@EDGES}. */
  public static Value federatedWeightedMeanToEdges(Value value, Value weight) {
    return apply(IntrinsicCatalogue.FEDERATED_WEIGHTED_MEAN_TO_EDGES,
        Values.tuple(zipIfStruct(value), weight));
  }

  /** {@code federated_min_to_edges: {T}@CLIENTS -> {T}@EDGES}. */
  public static Value federatedMinToEdges(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_MIN_TO_EDGES, zipIfStruct(value));
  }

  /** {@code federated_max_to_edges: {T}@CLIENTS -> {T}@EDGES}. */
  public static Value federatedMaxToEdges(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_MAX_TO_EDGES, zipIfStruct(value));
  }

  /**
   * {@code federated_aggregate_to_edges: <{T}@CLIENTS,U,(<U,T> -> U),(<U,U> -> U),(U -> R)> ->
   * {R}@EDGES}: each edge folds its own clients.
   */
  public static Value federatedAggregateToEdges(
      Value value, Value zero, Computation accumulate, Computation merge, Computation report) {
    return apply(IntrinsicCatalogue.FEDERATED_AGGREGATE_TO_EDGES, Values.tuple(
        zipIfStruct(value), zero, accumulate.asValue(), merge.asValue(), report.asValue()));
  }

  /** {@code federated_secure_sum_to_edges: <{V}@CLIENTS,M> -> {V}@EDGES}. */
  public static Value federatedSecureSumToEdges(Value value, Value bound) {
    return apply(IntrinsicCatalogue.FEDERATED_SECURE_SUM_TO_EDGES,
        Values.tuple(zipIfStruct(value), bound));
  }

  /** {@code federated_secure_sum_bitwidth_to_edges: <{V}@CLIENTS,B> -> {V}@EDGES}. */
  public static Value federatedSecureSumBitwidthToEdges(Value value, Value bitwidth) {
    return apply(IntrinsicCatalogue.FEDERATED_SECURE_SUM_BITWIDTH_TO_EDGES,
        Values.tuple(zipIfStruct(value), bitwidth));
  }

  /** {@code federated_sum_from_edges: {T}@EDGES -> T@SERVER}. */
  public static Value federatedSumFromEdges(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_SUM_FROM_EDGES, zipIfStruct(value));
  }

  /** {@code federated_mean_from_edges: {T}@EDGES -> T@SERVER}, every edge counting once. */
  public static Value federatedMeanFromEdges(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_MEAN_FROM_EDGES, zipIfStruct(value));
  }

  /** {@code federated_weighted_mean_from_edges: <{T}@EDGES,{U}@EDGES> -> T@SERVER}. */
  public static Value federatedWeightedMeanFromEdges(Value value, Value weight) {
    return apply(IntrinsicCatalogue.FEDERATED_WEIGHTED_MEAN_FROM_EDGES,
        Values.tuple(zipIfStruct(value), weight));
  }

  /** {@code federated_min_from_edges: {T}@EDGES -> T@SERVER}. */
  public static Value federatedMinFromEdges(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_MIN_FROM_EDGES, zipIfStruct(value));
  }

  /** {@code federated_max_from_edges: {T}@EDGES -> T@SERVER}. */
  public static Value federatedMaxFromEdges(Value value) {
    return apply(IntrinsicCatalogue.FEDERATED_MAX_FROM_EDGES, zipIfStruct(value));
  }

  /**
   * {@code federated_aggregate_from_edges: <{T}@EDGES,U,(<U,T> -> U),(<U,U> -> U),(U -> R)> ->
   * R@SERVER}.
   */
  public static Value federatedAggregateFromEdges(
      Value value, Value zero, Computation accumulate, Computation merge, Computation report) {
    return apply(IntrinsicCatalogue.FEDERATED_AGGREGATE_FROM_EDGES, Values.tuple(
        zipIfStruct(value), zero, accumulate.asValue(), merge.asValue(), report.asValue()));
  }

  private static IntrinsicDef requireClients(Placement placement, IntrinsicDef def) {
    if (!placement.equals(Placement.CLIENTS)) {
      throw new DefinitionException(def.uri(), "no such intrinsic for placement " + placement,
          "CLIENTS or SERVER", placement.label(), CallSites.find());
    }
    return def;
  }

  /** Fits {@code def} to {@code arg} and records the call. */
  static Value apply(IntrinsicDef def, Value arg) {
    Specialization s = def.specialize(Optional.of(arg.type()));
    return switch (s) {
      case Specialization.Failure f -> throw fail(def.uri(), f);
      case Specialization.Success ok -> bindCall(
          Call.of(new Intrinsic(def.uri(), ok.type()), arg.block()), ok.type().result(),
          List.of(arg), shortName(def.uri()));
    };
  }

  /** Records a call in the tracer of its arguments, or leaves it inline when there is none. */
  static Value bindCall(BuildingBlock call, Type result, List<Value> args, String hint) {
    Optional<Tracer> tracer = Values.commonTracer(hint, args);
    return tracer.map(t -> t.bind(call, result, hint)).orElseGet(() -> new Value(call, result,
        null));
  }

  /** A struct whose leaves are all placed at one placement, zipped; anything else unchanged. */
  static Value zipIfStruct(Value value) {
    if (value.type() instanceof StructType s && s.size() > 0
        && leafPlacement(s).isPresent()) {
      return federatedZip(value);
    }
    return value;
  }

  /** The placement every leaf of a struct is at, if there is exactly one. */
  private static Optional<Placement> leafPlacement(Type t) {
    if (t instanceof FederatedType f) {
      return Optional.of(f.placement());
    }
    if (t instanceof StructType s && s.size() > 0) {
      Optional<Placement> common = Optional.empty();
      for (StructType.Element e : s.elements()) {
        Optional<Placement> p = leafPlacement(e.type());
        if (p.isEmpty() || (common.isPresent() && !common.equals(p))) {
          return Optional.empty();
        }
        common = p;
      }
      return common;
    }
    return Optional.empty();
  }

  private static DefinitionException fail(String uri, Specialization.Failure f) {
    return new DefinitionException(uri, f.problem(), f.expected(), f.actual(), CallSites.find());
  }

  private static String shortName(String uri) {
    String s = uri.startsWith("federated_") ? uri.substring("federated_".length()) : uri;
    int at = s.indexOf("_at_");
    return at > 0 ? s.substring(0, at) : s;
  }
}
