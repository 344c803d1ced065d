package io.tributary.core.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class IntrinsicCatalogueTest {
  static Stream<Arguments> signatures() {
    return Stream.of(
        Arguments.of("federated_broadcast", "(T@SERVER -> T@CLIENTS)"),
        Arguments.of("federated_map", "(<(T -> U),{T}@CLIENTS> -> {U}@CLIENTS)"),
        Arguments.of("federated_map_all_equal", "(<(T -> U),T@CLIENTS> -> U@CLIENTS)"),
        Arguments.of("federated_apply", "(<(T -> U),T@SERVER> -> U@SERVER)"),
        Arguments.of("federated_sum", "({T}@CLIENTS -> T@SERVER)"),
        Arguments.of("federated_mean", "({T}@CLIENTS -> T@SERVER)"),
        Arguments.of("federated_weighted_mean", "(<{T}@CLIENTS,{U}@CLIENTS> -> T@SERVER)"),
        Arguments.of("federated_min", "({T}@CLIENTS -> T@SERVER)"),
        Arguments.of("federated_max", "({T}@CLIENTS -> T@SERVER)"),
        Arguments.of("federated_aggregate",
            "(<{T}@CLIENTS,U,(<U,T> -> U),(<U,U> -> U),(U -> R)> -> R@SERVER)"),
        Arguments.of("federated_secure_sum", "(<{V}@CLIENTS,M> -> V@SERVER)"),
        Arguments.of("federated_secure_sum_bitwidth", "(<{V}@CLIENTS,B> -> V@SERVER)"),
        Arguments.of("federated_zip_at_clients", "(T -> {U}@CLIENTS)"),
        Arguments.of("federated_zip_at_server", "(T -> U@SERVER)"),
        Arguments.of("federated_value_at_clients", "(T -> T@CLIENTS)"),
        Arguments.of("federated_value_at_server", "(T -> T@SERVER)"),
        Arguments.of("federated_eval_at_clients", "(( -> T) -> {T}@CLIENTS)"),
        Arguments.of("federated_eval_at_server", "(( -> T) -> T@SERVER)"),
        Arguments.of("federated_select",
            "(<{Ks}@CLIENTS,int32@SERVER,T@SERVER,(<T,int32> -> U)> -> {U*}@CLIENTS)"),
        Arguments.of("federated_secure_select",
            "(<{Ks}@CLIENTS,int32@SERVER,T@SERVER,(<T,int32> -> U)> -> {U*}@CLIENTS)"),
        Arguments.of("sequence_map", "(<(T -> U),T*> -> U*)"),
        Arguments.of("sequence_reduce", "(<T*,U,(<U,T> -> U)> -> U)"),
        Arguments.of("sequence_sum", "(T* -> T)"),
        Arguments.of("generic_plus", "(<T,T> -> T)"),
        Arguments.of("generic_divide", "(<T,T> -> U)"),
        Arguments.of("generic_multiply", "(<T,T> -> T)"),
        Arguments.of("generic_zero", "T"));
  }

  static Stream<Arguments> tierSignatures() {
    return Stream.of(
        Arguments.of("federated_broadcast_to_edges", "(T@SERVER -> T@EDGES)"),
        Arguments.of("federated_broadcast_from_edges", "({T}@EDGES -> {T}@CLIENTS)"),
        Arguments.of("federated_map_at_edges", "(<(T -> U),{T}@EDGES> -> {U}@EDGES)"),
        Arguments.of("federated_zip_at_edges", "(T -> {U}@EDGES)"),
        Arguments.of("federated_sum_to_edges", "({T}@CLIENTS -> {T}@EDGES)"),
        Arguments.of("federated_mean_to_edges", "({T}@CLIENTS -> {T}@EDGES)"),
        Arguments.of("federated_weighted_mean_to_edges",
            "(<{T}@CLIENTS,{U}@CLIENTS> -> {T}@EDGES)"),
        Arguments.of("federated_min_to_edges", "({T}@CLIENTS -> {T}@EDGES)"),
        Arguments.of("federated_max_to_edges", "({T}@CLIENTS -> {T}@EDGES)"),
        Arguments.of("federated_aggregate_to_edges",
            "(<{T}@CLIENTS,U,(<U,T> -> U),(<U,U> -> U),(U -> R)> -> {R}@EDGES)"),
        Arguments.of("federated_secure_sum_to_edges", "(<{V}@CLIENTS,M> -> {V}@EDGES)"),
        Arguments.of("federated_secure_sum_bitwidth_to_edges", "(<{V}@CLIENTS,B> -> {V}@EDGES)"),
        Arguments.of("federated_sum_from_edges", "({T}@EDGES -> T@SERVER)"),
        Arguments.of("federated_mean_from_edges", "({T}@EDGES -> T@SERVER)"),
        Arguments.of("federated_weighted_mean_from_edges",
            "(<{T}@EDGES,{U}@EDGES> -> T@SERVER)"),
        Arguments.of("federated_min_from_edges", "({T}@EDGES -> T@SERVER)"),
        Arguments.of("federated_max_from_edges", "({T}@EDGES -> T@SERVER)"),
        Arguments.of("federated_aggregate_from_edges",
            "(<{T}@EDGES,U,(<U,T> -> U),(<U,U> -> U),(U -> R)> -> R@SERVER)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tierSignatures")
  void byUri_eachTierIntrinsic_hasItsSignature(String uri, String signature) {
    byUri_eachIntrinsic_hasFactsSignature(uri, signature);
  }

  @Test
  void tiers_catalogue_hasExactlyTheListedTierIntrinsicsAfterFederatedLanguagesOnes() {
    assertThat(IntrinsicCatalogue.tiers()).extracting(IntrinsicDef::uri)
        .containsExactlyElementsOf(tierSignatures().map(a -> (String) a.get()[0]).toList());
    assertThat(IntrinsicCatalogue.all()).containsExactlyElementsOf(
        Stream.concat(IntrinsicCatalogue.federatedLanguage().stream(),
            IntrinsicCatalogue.tiers().stream()).toList());
  }

  @Test
  void specialize_tierMovements_keepTheConditionsOfTheirTwoTierIntrinsic() {
    IntrinsicDef mean = IntrinsicCatalogue.FEDERATED_MEAN_TO_EDGES;
    assertThat(mean.specialize(Optional.of(Types.parse("{int32}@CLIENTS"))))
        .isInstanceOf(Specialization.Failure.class);
    assertThat(((Specialization.Success) mean.specialize(
        Optional.of(Types.parse("float32@CLIENTS")))).type().compact())
        .isEqualTo("({float32}@CLIENTS -> {float32}@EDGES)");
    Specialization wrongTier = IntrinsicCatalogue.FEDERATED_SUM_FROM_EDGES.specialize(
        Optional.of(Types.parse("{int32}@CLIENTS")));
    assertThat(wrongTier).isInstanceOfSatisfying(Specialization.Failure.class, f -> {
      assertThat(f.expected()).isEqualTo("{T}@EDGES where T is made of numeric tensors of fully"
          + " defined shape");
      assertThat(f.actual()).isEqualTo("{int32}@CLIENTS");
    });
    assertThat(((Specialization.Success) IntrinsicCatalogue.FEDERATED_ZIP_AT_EDGES.specialize(
        Optional.of(Types.parse("<float32@EDGES,{int32}@EDGES>")))).type().compact())
        .isEqualTo("(<{float32}@EDGES,{int32}@EDGES> -> {<float32,int32>}@EDGES)");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("signatures")
  void byUri_eachIntrinsic_hasFactsSignature(String uri, String signature) {
    IntrinsicDef def = IntrinsicCatalogue.byUri(uri).orElseThrow();
    assertThat(def.uri()).isEqualTo(uri);
    assertThat(def.signature().compact()).isEqualTo(signature);
  }

  @Test
  void all_catalogue_hasExactlyTheListedIntrinsics() {
    assertThat(IntrinsicCatalogue.federatedLanguage()).extracting(IntrinsicDef::uri)
        .containsExactlyElementsOf(signatures().map(a -> (String) a.get()[0]).toList());
    assertThat(IntrinsicCatalogue.byUri("federated_reduce")).isEmpty();
  }

  /** Where the parameter as written is the argument itself. */
  private static final String SAME = "";

  static Stream<Arguments> fits() {
    return Stream.of(
        // uri, argument, parameter as federated-language writes it, concrete result
        Arguments.of("federated_broadcast", "float32[2]@SERVER", SAME, "float32[2]@CLIENTS"),
        Arguments.of("federated_map", "<(int32 -> float32),{int32}@CLIENTS>", SAME,
            "{float32}@CLIENTS"),
        Arguments.of("federated_map", "<(int32[?] -> bool),{int32[4]}@CLIENTS>", SAME,
            "{bool}@CLIENTS"),
        Arguments.of("federated_map", "<(int32 -> bool),int32@CLIENTS>",
            "<(int32 -> bool),{int32}@CLIENTS>", "{bool}@CLIENTS"),
        Arguments.of("federated_map", "<f=(<a=int32> -> bool),x={<int32>}@CLIENTS>", SAME,
            "{bool}@CLIENTS"),
        Arguments.of("federated_map_all_equal", "<(int32 -> bool),int32@CLIENTS>", SAME,
            "bool@CLIENTS"),
        Arguments.of("federated_apply", "<(int32 -> bool),int32@SERVER>", SAME, "bool@SERVER"),
        Arguments.of("federated_sum", "{int32[3]}@CLIENTS", SAME, "int32[3]@SERVER"),
        Arguments.of("federated_sum", "int32@CLIENTS", "{int32}@CLIENTS", "int32@SERVER"),
        Arguments.of("federated_mean", "{float32}@CLIENTS", SAME, "float32@SERVER"),
        Arguments.of("federated_mean", "<a=float32,b=float64[2]>@CLIENTS",
            "{<a=float32,b=float64[2]>}@CLIENTS", "<a=float32,b=float64[2]>@SERVER"),
        Arguments.of("federated_weighted_mean", "<{float32[5]}@CLIENTS,int64@CLIENTS>",
            "<{float32[5]}@CLIENTS,{int64}@CLIENTS>", "float32[5]@SERVER"),
        Arguments.of("federated_min", "int32@CLIENTS", "{int32}@CLIENTS", "int32@SERVER"),
        Arguments.of("federated_max", "{float64[?]}@CLIENTS", SAME, "float64[?]@SERVER"),
        Arguments.of("federated_aggregate",
            "<{int32}@CLIENTS,int64,(<a=int64,b=int32> -> int64),(<int64,int64> -> int64),"
                + "(int64 -> float32)>",
            "<{int32}@CLIENTS,int64,(<int64,int32> -> int64),(<int64,int64> -> int64),"
                + "(int64 -> float32)>",
            "float32@SERVER"),
        Arguments.of("federated_secure_sum", "<int32[2]@CLIENTS,int32>",
            "<{int32[2]}@CLIENTS,int32>", "int32[2]@SERVER"),
        Arguments.of("federated_secure_sum_bitwidth", "<{<int32,int64>}@CLIENTS,<int32,int32>>",
            SAME, "<int32,int64>@SERVER"),
        Arguments.of("federated_zip_at_clients", "<a={int32}@CLIENTS,b=float32@CLIENTS>",
            "<a={int32}@CLIENTS,b={float32}@CLIENTS>", "{<a=int32,b=float32>}@CLIENTS"),
        Arguments.of("federated_zip_at_clients", "<{int32}@CLIENTS,<{bool}@CLIENTS>>", SAME,
            "{<int32,<bool>>}@CLIENTS"),
        Arguments.of("federated_zip_at_server", "<int32@SERVER,float32@SERVER>", SAME,
            "<int32,float32>@SERVER"),
        Arguments.of("federated_value_at_clients", "int32", SAME, "int32@CLIENTS"),
        Arguments.of("federated_value_at_server", "<int32>", SAME, "<int32>@SERVER"),
        Arguments.of("federated_eval_at_clients", "( -> int32)", SAME, "{int32}@CLIENTS"),
        Arguments.of("federated_eval_at_server", "( -> int32)", SAME, "int32@SERVER"),
        Arguments.of("federated_select",
            "<{int32[?]}@CLIENTS,int32@SERVER,float32[10]@SERVER,(<float32[10],int32> -> float32)>",
            SAME, "{float32*}@CLIENTS"),
        Arguments.of("federated_secure_select",
            "<{int32[2]}@CLIENTS,int32@SERVER,int64@SERVER,(<s=int64,k=int32> -> int64)>",
            "<{int32[2]}@CLIENTS,int32@SERVER,int64@SERVER,(<int64,int32> -> int64)>",
            "{int64*}@CLIENTS"),
        Arguments.of("sequence_map", "<(int32 -> bool),int32*>", SAME, "bool*"),
        Arguments.of("sequence_reduce", "<int32*,int64,(<int64,int32> -> int64)>", SAME,
            "int64"),
        Arguments.of("sequence_sum", "float32[2]*", SAME, "float32[2]"),
        Arguments.of("generic_plus", "<float32,float32>", SAME, "float32"),
        Arguments.of("generic_divide", "<float32[2],float32[2]>", SAME, "float32[2]"),
        Arguments.of("generic_divide", "<<int8,uint16>,<int8,uint16>>", SAME,
            "<float32,float32>"),
        Arguments.of("generic_divide", "<<int32,uint64>,<int32,uint64>>", SAME,
            "<float64,float64>"),
        Arguments.of("generic_divide", "<complex64,complex64>", SAME, "complex64"),
        Arguments.of("generic_multiply", "<{int32}@CLIENTS,{int32}@CLIENTS>", SAME,
            "{int32}@CLIENTS"));
  }

  @ParameterizedTest(name = "{0}({1})")
  @MethodSource("fits")
  void specialize_fittingArgument_givesFederatedLanguagesInstance(
      String uri, String argument, String parameter, String result) {
    IntrinsicDef def = IntrinsicCatalogue.byUri(uri).orElseThrow();
    Specialization s = def.specialize(Optional.of(Types.parse(argument)));
    assertThat(s).isInstanceOf(Specialization.Success.class);
    Specialization.Success ok = (Specialization.Success) s;
    assertThat(ok.type().result().compact()).isEqualTo(result);
    Type written = ok.type().parameter().orElseThrow();
    assertThat(written.compact()).isEqualTo(parameter.equals(SAME) ? argument : parameter);
    assertThat(Types.isAssignable(written, Types.parse(argument))).isTrue();
    assertThat(def.checkInstance(ok.type())).isEmpty();
    // The argument's own form, which older writers used, is still read.
    assertThat(def.checkInstance(FunctionType.of(Types.parse(argument), ok.type().result())))
        .isEmpty();
  }

  @Test
  void checkInstance_genericDivideToAnotherFloatingType_isReadAndOthersAreNot() {
    IntrinsicDef divide = IntrinsicCatalogue.GENERIC_DIVIDE;
    assertThat(divide.checkInstance(Types.parse("(<int32[2],int32[2]> -> float32[2])")))
        .isEmpty();
    assertThat(divide.checkInstance(Types.parse("(<int32[2],int32[2]> -> int32[2])")))
        .isPresent();
    assertThat(divide.checkInstance(Types.parse("(<int32[2],int32[2]> -> float64[3])")))
        .isPresent();
    assertThat(divide.checkInstance(Types.parse("(<complex64,complex64> -> float64)")))
        .isPresent();
    assertThat(divide.specialize(Optional.of(Types.parse("<string,string>"))))
        .isInstanceOf(Specialization.Failure.class);
  }

  static Stream<Arguments> misfits() {
    return Stream.of(
        // uri, argument, problem fragment
        Arguments.of("federated_broadcast", "float32@CLIENTS", "placed at SERVER"),
        Arguments.of("federated_broadcast", "float32", "expected a value placed at SERVER"),
        Arguments.of("federated_map", "<(int32 -> float32),{float32}@CLIENTS>", "T is int32"),
        Arguments.of("federated_map", "<(int32 -> float32),int32@SERVER>", "placed at CLIENTS"),
        Arguments.of("federated_map_all_equal", "<(int32 -> bool),{int32}@CLIENTS>",
            "all-equal"),
        Arguments.of("federated_sum", "{float32[?]}@CLIENTS", "fully defined shape"),
        Arguments.of("federated_sum", "{bool}@CLIENTS", "numeric"),
        Arguments.of("federated_mean", "{int32}@CLIENTS", "floating"),
        Arguments.of("federated_mean", "float32@SERVER", "placed at CLIENTS"),
        Arguments.of("federated_weighted_mean", "<{float32}@CLIENTS,{float32[2]}@CLIENTS>",
            "real numeric scalar"),
        Arguments.of("federated_min", "{complex64}@CLIENTS", "integer or floating"),
        Arguments.of("federated_aggregate",
            "<{int32}@CLIENTS,int64,(<int64,int32> -> int32),(<int64,int64> -> int64),"
                + "(int64 -> float32)>",
            "U is int64"),
        Arguments.of("federated_secure_sum", "<{float32}@CLIENTS,int32>", "integer"),
        Arguments.of("federated_zip_at_clients", "<{int32}@CLIENTS,int32@SERVER>",
            "placed at CLIENTS"),
        Arguments.of("federated_zip_at_clients", "<>", "non-empty"),
        Arguments.of("federated_value_at_server", "int32@CLIENTS", "not a valid type"),
        Arguments.of("federated_eval_at_server", "(int32 -> int32)", "without a parameter"),
        Arguments.of("federated_select",
            "<{int32}@CLIENTS,int32@SERVER,float32@SERVER,(<float32,int32> -> float32)>",
            "int32 vector"),
        Arguments.of("sequence_map", "<(int32 -> bool),int32>", "sequence"),
        Arguments.of("sequence_sum", "string*", "numeric"),
        Arguments.of("generic_plus", "<float32,int32>", "T is float32"),
        Arguments.of("generic_plus", "<bool,bool>", "numeric"),
        Arguments.of("generic_zero", "int32", "cannot be called"));
  }

  @ParameterizedTest(name = "{0}({1})")
  @MethodSource("misfits")
  void specialize_wrongArgument_explainsWithTypes(String uri, String argument, String problem) {
    Specialization s =
        IntrinsicCatalogue.byUri(uri).orElseThrow()
            .specialize(Optional.of(Types.parse(argument)));
    assertThat(s).isInstanceOf(Specialization.Failure.class);
    Specialization.Failure f = (Specialization.Failure) s;
    assertThat(f.problem()).contains(problem);
    assertThat(f.actual()).isEqualTo(Types.parse(argument).compact());
    assertThat(f.expected()).isNotBlank();
  }

  @Test
  void checkInstance_genericZero_needsSummableType() {
    IntrinsicDef zero = IntrinsicCatalogue.GENERIC_ZERO;
    assertThat(zero.checkInstance(Types.parse("<float32[3],int32>"))).isEmpty();
    assertThat(zero.checkInstance(Types.parse("float32[?]"))).isPresent();
    assertThat(zero.checkInstance(Types.parse("T"))).isPresent();
  }

  @Test
  void checkInstance_resultDisagreesWithSignature_fails() {
    assertThat(IntrinsicCatalogue.FEDERATED_MEAN.checkInstance(
        Types.parse("({float32}@CLIENTS -> float64@SERVER)"))).isPresent();
    assertThat(IntrinsicCatalogue.FEDERATED_MEAN.checkInstance(Types.parse("float32")))
        .isPresent();
  }
}
