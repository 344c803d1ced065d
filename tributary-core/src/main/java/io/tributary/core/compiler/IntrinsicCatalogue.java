package io.tributary.core.compiler;

import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import io.tributary.tensor.DType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every intrinsic of the Federated Core with its template signature and its federated-language
 * URI.
 *
 * <p>{@code {T}@P} in a signature is a value that may differ between the members of {@code P};
 * {@code T@P} is all-equal. Conditions on type variables (numeric, floating, ...) are checked when
 * an intrinsic is fitted to an argument.
 */
public final class IntrinsicCatalogue {
  private static final String SUMMABLE = "T is made of numeric tensors of fully defined shape";

  public static final IntrinsicDef FEDERATED_BROADCAST =
      IntrinsicDef.template("federated_broadcast", "(T@SERVER -> T@CLIENTS)");
  public static final IntrinsicDef FEDERATED_MAP =
      IntrinsicDef.template("federated_map", "(<(T -> U),{T}@CLIENTS> -> {U}@CLIENTS)");
  public static final IntrinsicDef FEDERATED_MAP_ALL_EQUAL =
      IntrinsicDef.template("federated_map_all_equal", "(<(T -> U),T@CLIENTS> -> U@CLIENTS)");
  public static final IntrinsicDef FEDERATED_APPLY =
      IntrinsicDef.template("federated_apply", "(<(T -> U),T@SERVER> -> U@SERVER)");
  public static final IntrinsicDef FEDERATED_SUM =
      IntrinsicDef.template(
          "federated_sum", "({T}@CLIENTS -> T@SERVER)", SUMMABLE,
          b -> require(Types.isSumCompatible(b.get("T")), SUMMABLE));
  public static final IntrinsicDef FEDERATED_MEAN =
      IntrinsicDef.template(
          "federated_mean", "({T}@CLIENTS -> T@SERVER)", "T is made of floating tensors",
          b -> require(Types.isMeanCompatible(b.get("T")), "T is made of floating tensors"));
  public static final IntrinsicDef FEDERATED_WEIGHTED_MEAN =
      IntrinsicDef.template(
          "federated_weighted_mean",
          "(<{T}@CLIENTS,{U}@CLIENTS> -> T@SERVER)",
          "T is made of floating tensors and U is a real numeric scalar",
          b ->
              require(Types.isMeanCompatible(b.get("T")), "T is made of floating tensors")
                  .or(() -> require(isRealScalar(b.get("U")), "U is a real numeric scalar")));
  public static final IntrinsicDef FEDERATED_MIN =
      IntrinsicDef.template(
          "federated_min", "({T}@CLIENTS -> T@SERVER)", "T is made of integer or floating tensors",
          b -> require(Types.isMinMaxCompatible(b.get("T")),
              "T is made of integer or floating tensors"));
  public static final IntrinsicDef FEDERATED_MAX =
      IntrinsicDef.template(
          "federated_max", "({T}@CLIENTS -> T@SERVER)", "T is made of integer or floating tensors",
          b -> require(Types.isMinMaxCompatible(b.get("T")),
              "T is made of integer or floating tensors"));
  public static final IntrinsicDef FEDERATED_AGGREGATE =
      IntrinsicDef.template(
          "federated_aggregate",
          "(<{T}@CLIENTS,U,(<U,T> -> U),(<U,U> -> U),(U -> R)> -> R@SERVER)");
  public static final IntrinsicDef FEDERATED_SECURE_SUM =
      IntrinsicDef.template(
          "federated_secure_sum",
          "(<{V}@CLIENTS,M> -> V@SERVER)",
          "V is made of integer tensors and M is an integer scalar or a struct of them",
          b -> secureSum(b.get("V"), b.get("M"), "M"));
  public static final IntrinsicDef FEDERATED_SECURE_SUM_BITWIDTH =
      IntrinsicDef.template(
          "federated_secure_sum_bitwidth",
          "(<{V}@CLIENTS,B> -> V@SERVER)",
          "V is made of integer tensors and B is an integer scalar or a struct of them",
          b -> secureSum(b.get("V"), b.get("B"), "B"));
  public static final IntrinsicDef FEDERATED_ZIP_AT_CLIENTS =
      IntrinsicDef.zip("federated_zip_at_clients", Placement.CLIENTS);
  public static final IntrinsicDef FEDERATED_ZIP_AT_SERVER =
      IntrinsicDef.zip("federated_zip_at_server", Placement.SERVER);
  public static final IntrinsicDef FEDERATED_VALUE_AT_CLIENTS =
      IntrinsicDef.template("federated_value_at_clients", "(T -> T@CLIENTS)");
  public static final IntrinsicDef FEDERATED_VALUE_AT_SERVER =
      IntrinsicDef.template("federated_value_at_server", "(T -> T@SERVER)");
  public static final IntrinsicDef FEDERATED_EVAL_AT_CLIENTS =
      IntrinsicDef.template("federated_eval_at_clients", "(( -> T) -> {T}@CLIENTS)");
  public static final IntrinsicDef FEDERATED_EVAL_AT_SERVER =
      IntrinsicDef.template("federated_eval_at_server", "(( -> T) -> T@SERVER)");
  public static final IntrinsicDef FEDERATED_SELECT = select("federated_select");
  /**
   * Distributes server values to clients by private keys. Tributary selects in the clear, as
   * {@code federated_select} does: the keys are not hidden from the server (docs/federated-core.md).
   */
  public static final IntrinsicDef FEDERATED_SECURE_SELECT = select("federated_secure_select");
  public static final IntrinsicDef SEQUENCE_MAP =
      IntrinsicDef.template("sequence_map", "(<(T -> U),T*> -> U*)");
  public static final IntrinsicDef SEQUENCE_REDUCE =
      IntrinsicDef.template("sequence_reduce", "(<T*,U,(<U,T> -> U)> -> U)");
  public static final IntrinsicDef SEQUENCE_SUM =
      IntrinsicDef.template(
          "sequence_sum", "(T* -> T)", SUMMABLE,
          b -> require(Types.isSumCompatible(b.get("T")), SUMMABLE));
  public static final IntrinsicDef GENERIC_PLUS =
      IntrinsicDef.template(
          "generic_plus", "(<T,T> -> T)", "T is made of numeric tensors",
          b -> require(isArithmetic(b.get("T")), "T is made of numeric tensors"));
  public static final IntrinsicDef GENERIC_DIVIDE =
      IntrinsicDef.quotient(
          "generic_divide", "T is made of numeric tensors; U is T's true-division type",
          b -> require(isArithmetic(b.get("T")), "T is made of numeric tensors"));
  public static final IntrinsicDef GENERIC_MULTIPLY =
      IntrinsicDef.template(
          "generic_multiply", "(<T,T> -> T)", "T is made of numeric tensors",
          b -> require(isArithmetic(b.get("T")), "T is made of numeric tensors"));
  public static final IntrinsicDef GENERIC_ZERO =
      IntrinsicDef.value(
          "generic_zero", SUMMABLE,
          b -> require(Types.isSumCompatible(b.get("T")), SUMMABLE));

  // The tier intrinsics: values moving between CLIENTS, EDGES and SERVER. federated-language has
  // no EDGES placement, so these have no federated-language counterpart. Names: "_to_edges" puts
  // EDGES where the intrinsic's result placement was, "_from_edges" where its source was.

  public static final IntrinsicDef FEDERATED_BROADCAST_TO_EDGES =
      IntrinsicDef.template("federated_broadcast_to_edges", "(T@SERVER -> T@EDGES)");
  public static final IntrinsicDef FEDERATED_BROADCAST_FROM_EDGES =
      IntrinsicDef.template("federated_broadcast_from_edges", "({T}@EDGES -> {T}@CLIENTS)");
  public static final IntrinsicDef FEDERATED_MAP_AT_EDGES =
      IntrinsicDef.template("federated_map_at_edges", "(<(T -> U),{T}@EDGES> -> {U}@EDGES)");
  public static final IntrinsicDef FEDERATED_ZIP_AT_EDGES =
      IntrinsicDef.zip("federated_zip_at_edges", Placement.EDGES);
  public static final IntrinsicDef FEDERATED_SUM_TO_EDGES =
      moved(FEDERATED_SUM, "federated_sum_to_edges", "({T}@CLIENTS -> {T}@EDGES)");
  public static final IntrinsicDef FEDERATED_MEAN_TO_EDGES =
      moved(FEDERATED_MEAN, "federated_mean_to_edges", "({T}@CLIENTS -> {T}@EDGES)");
  public static final IntrinsicDef FEDERATED_WEIGHTED_MEAN_TO_EDGES =
      moved(FEDERATED_WEIGHTED_MEAN, "federated_weighted_mean_to_edges",
          "(<{T}@CLIENTS,{U}@CLIENTS> -> {T}@EDGES)");
  public static final IntrinsicDef FEDERATED_MIN_TO_EDGES =
      moved(FEDERATED_MIN, "federated_min_to_edges", "({T}@CLIENTS -> {T}@EDGES)");
  public static final IntrinsicDef FEDERATED_MAX_TO_EDGES =
      moved(FEDERATED_MAX, "federated_max_to_edges", "({T}@CLIENTS -> {T}@EDGES)");
  public static final IntrinsicDef FEDERATED_AGGREGATE_TO_EDGES =
      moved(FEDERATED_AGGREGATE, "federated_aggregate_to_edges",
          "(<{T}@CLIENTS,U,(<U,T> -> U),(<U,U> -> U),(U -> R)> -> {R}@EDGES)");
  public static final IntrinsicDef FEDERATED_SECURE_SUM_TO_EDGES =
      moved(FEDERATED_SECURE_SUM, "federated_secure_sum_to_edges",
          "(<{V}@CLIENTS,M> -> {V}@EDGES)");
  public static final IntrinsicDef FEDERATED_SECURE_SUM_BITWIDTH_TO_EDGES =
      moved(FEDERATED_SECURE_SUM_BITWIDTH, "federated_secure_sum_bitwidth_to_edges",
          "(<{V}@CLIENTS,B> -> {V}@EDGES)");
  public static final IntrinsicDef FEDERATED_SUM_FROM_EDGES =
      moved(FEDERATED_SUM, "federated_sum_from_edges", "({T}@EDGES -> T@SERVER)");
  public static final IntrinsicDef FEDERATED_MEAN_FROM_EDGES =
      moved(FEDERATED_MEAN, "federated_mean_from_edges", "({T}@EDGES -> T@SERVER)");
  public static final IntrinsicDef FEDERATED_WEIGHTED_MEAN_FROM_EDGES =
      moved(FEDERATED_WEIGHTED_MEAN, "federated_weighted_mean_from_edges",
          "(<{T}@EDGES,{U}@EDGES> -> T@SERVER)");
  public static final IntrinsicDef FEDERATED_MIN_FROM_EDGES =
      moved(FEDERATED_MIN, "federated_min_from_edges", "({T}@EDGES -> T@SERVER)");
  public static final IntrinsicDef FEDERATED_MAX_FROM_EDGES =
      moved(FEDERATED_MAX, "federated_max_from_edges", "({T}@EDGES -> T@SERVER)");
  public static final IntrinsicDef FEDERATED_AGGREGATE_FROM_EDGES =
      moved(FEDERATED_AGGREGATE, "federated_aggregate_from_edges",
          "(<{T}@EDGES,U,(<U,T> -> U),(<U,U> -> U),(U -> R)> -> R@SERVER)");

  private static final List<IntrinsicDef> TIERS =
      List.of(
          FEDERATED_BROADCAST_TO_EDGES, FEDERATED_BROADCAST_FROM_EDGES, FEDERATED_MAP_AT_EDGES,
          FEDERATED_ZIP_AT_EDGES, FEDERATED_SUM_TO_EDGES, FEDERATED_MEAN_TO_EDGES,
          FEDERATED_WEIGHTED_MEAN_TO_EDGES, FEDERATED_MIN_TO_EDGES, FEDERATED_MAX_TO_EDGES,
          FEDERATED_AGGREGATE_TO_EDGES, FEDERATED_SECURE_SUM_TO_EDGES,
          FEDERATED_SECURE_SUM_BITWIDTH_TO_EDGES, FEDERATED_SUM_FROM_EDGES,
          FEDERATED_MEAN_FROM_EDGES, FEDERATED_WEIGHTED_MEAN_FROM_EDGES, FEDERATED_MIN_FROM_EDGES,
          FEDERATED_MAX_FROM_EDGES, FEDERATED_AGGREGATE_FROM_EDGES);

  private static final List<IntrinsicDef> FEDERATED_LANGUAGE =
      List.of(
          FEDERATED_BROADCAST, FEDERATED_MAP, FEDERATED_MAP_ALL_EQUAL, FEDERATED_APPLY,
          FEDERATED_SUM, FEDERATED_MEAN, FEDERATED_WEIGHTED_MEAN, FEDERATED_MIN, FEDERATED_MAX,
          FEDERATED_AGGREGATE, FEDERATED_SECURE_SUM, FEDERATED_SECURE_SUM_BITWIDTH,
          FEDERATED_ZIP_AT_CLIENTS, FEDERATED_ZIP_AT_SERVER, FEDERATED_VALUE_AT_CLIENTS,
          FEDERATED_VALUE_AT_SERVER, FEDERATED_EVAL_AT_CLIENTS, FEDERATED_EVAL_AT_SERVER,
          FEDERATED_SELECT, FEDERATED_SECURE_SELECT, SEQUENCE_MAP, SEQUENCE_REDUCE, SEQUENCE_SUM,
          GENERIC_PLUS, GENERIC_DIVIDE, GENERIC_MULTIPLY, GENERIC_ZERO);

  private static final List<IntrinsicDef> ALL = concat(FEDERATED_LANGUAGE, TIERS);

  private static final Map<String, IntrinsicDef> BY_URI = index();

  private IntrinsicCatalogue() {}

  private static Map<String, IntrinsicDef> index() {
    Map<String, IntrinsicDef> m = new LinkedHashMap<>();
    for (IntrinsicDef d : ALL) {
      m.put(d.uri(), d);
    }
    return Map.copyOf(m);
  }

  /** Every intrinsic, in catalogue order: federated-language's, then the tier intrinsics. */
  public static List<IntrinsicDef> all() {
    return ALL;
  }

  /** The intrinsics of federated-language 0.5.3, which it reads and writes too. */
  public static List<IntrinsicDef> federatedLanguage() {
    return FEDERATED_LANGUAGE;
  }

  /**
   * The intrinsics that move values to, from or within {@code EDGES}; federated-language cannot
   * read a computation that uses them.
   */
  public static List<IntrinsicDef> tiers() {
    return TIERS;
  }

  private static List<IntrinsicDef> concat(List<IntrinsicDef> a, List<IntrinsicDef> b) {
    List<IntrinsicDef> out = new java.util.ArrayList<>(a);
    out.addAll(b);
    return List.copyOf(out);
  }

  /** {@code base}'s conditions on its type variables under another URI and signature. */
  private static IntrinsicDef moved(IntrinsicDef base, String uri, String signature) {
    return base.withSignature(uri, signature);
  }

  /** The intrinsic with this URI, if there is one. */
  public static Optional<IntrinsicDef> byUri(String uri) {
    return Optional.ofNullable(BY_URI.get(uri));
  }

  private static Optional<String> require(boolean holds, String condition) {
    return holds ? Optional.empty() : Optional.of("the condition '" + condition + "' fails");
  }

  private static boolean isRealScalar(Type t) {
    return t instanceof TensorType x
        && x.isScalar()
        && (x.dtype().isInteger() || x.dtype().isFloating());
  }

  /** federated_select's signature and key condition, which its secure variant shares. */
  private static IntrinsicDef select(String uri) {
    return IntrinsicDef.template(uri,
        "(<{Ks}@CLIENTS,int32@SERVER,T@SERVER,(<T,int32> -> U)> -> {U*}@CLIENTS)",
        "Ks is an int32 vector of keys",
        b -> require(isKeyVector(b.get("Ks")), "Ks is an int32 vector of keys"));
  }

  private static boolean isKeyVector(Type t) {
    return t instanceof TensorType k && k.dtype() == DType.INT32 && !k.unknownRank()
        && k.rank() == 1;
  }

  private static boolean isArithmetic(Type t) {
    return Types.allTensors(t, x -> x.dtype().isNumeric());
  }

  private static Optional<String> secureSum(Type value, Type bound, String boundName) {
    if (!Types.allTensors(value, x -> x.dtype().isInteger() && x.isFullyDefined())) {
      return Optional.of("the condition 'V is made of integer tensors' fails");
    }
    boolean boundOk = Types.allTensors(bound, x -> x.dtype().isInteger() && x.isScalar());
    if (bound instanceof StructType bs && !(value instanceof StructType vs && vs.size() == bs.size())) {
      boundOk = false;
    }
    return require(boundOk, boundName + " is an integer scalar or a struct of them");
  }
}
