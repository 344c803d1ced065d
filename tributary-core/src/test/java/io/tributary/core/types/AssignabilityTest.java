package io.tributary.core.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every assignability rule, checked in both directions: {@code target <- source} and
 * {@code source <- target}.
 */
class AssignabilityTest {
  static Stream<Arguments> rules() {
    return Stream.of(
        // rule, target, source, target<-source, source<-target
        row("same tensor", "int32[3]", "int32[3]", true, true),
        row("no implicit cast", "float32", "int32", false, false),
        row("no widening", "float64[2]", "float32[2]", false, false),
        row("unknown dim accepts any size", "int32[?]", "int32[7]", true, false),
        row("unknown dim per position", "int32[?,5]", "int32[3,5]", true, false),
        row("known dims must match", "int32[3,5]", "int32[3,6]", false, false),
        row("rank must match", "int32[3]", "int32[3,1]", false, false),
        row("unknown rank accepts any shape", "int32[...]", "int32[2,3]", true, false),
        row("unknown rank accepts scalar", "int32[...]", "int32", true, false),
        row("unknown rank accepts unknown dims", "int32[...]", "int32[?]", true, false),
        row("unknown rank vs unknown rank", "int32[...]", "int32[...]", true, true),
        row("struct elementwise", "<int32[?],float32>", "<int32[4],float32>", true, false),
        row("struct order matters", "<int32,float32>", "<float32,int32>", false, false),
        row("struct length matters", "<int32>", "<int32,int32>", false, false),
        row("named source needs same name", "<a=int32>", "<b=int32>", false, false),
        row("unnamed source fits named target", "<a=int32>", "<int32>", true, false),
        row("named source does not fit unnamed", "<int32,b=float32>", "<a=int32,b=float32>",
            false, true),
        row("same names", "<a=int32,b=float32>", "<a=int32,b=float32>", true, true),
        row("empty structs", "<>", "<>", true, true),
        row("sequence covariant", "int32[?]*", "int32[5]*", true, false),
        row("sequence vs element", "int32*", "int32", false, false),
        row("function result covariant", "( -> int32[?])", "( -> int32[2])", true, false),
        row("function parameter contravariant", "(int32[2] -> bool)", "(int32[?] -> bool)",
            true, false),
        row("function both", "(int32[2] -> int32[?])", "(int32[?] -> int32[2])", true, false),
        row("function arity", "(int32 -> int32)", "( -> int32)", false, false),
        row("all-equal fits not-all-equal", "{int32}@CLIENTS", "int32@CLIENTS", true, false),
        row("placement must match", "int32@SERVER", "int32@CLIENTS", false, false),
        row("federated member covariant", "{int32[?]}@CLIENTS", "{int32[3]}@CLIENTS", true,
            false),
        row("federated vs member", "int32@SERVER", "int32", false, false),
        row("placement type", "placement", "placement", true, true),
        row("abstract same label", "T", "T", true, true),
        row("abstract different label", "T", "U", false, false),
        row("abstract vs concrete", "T", "int32", false, false),
        row("struct of federated", "<{int32}@CLIENTS,float32@SERVER>",
            "<int32@CLIENTS,float32@SERVER>", true, false));
  }

  private static Arguments row(
      String rule, String target, String source, boolean forward, boolean backward) {
    return Arguments.of(rule, target, source, forward, backward);
  }

  @ParameterizedTest(name = "{0}: {1} <- {2}")
  @MethodSource("rules")
  void isAssignable_rule_holdsInBothDirections(
      String rule, String target, String source, boolean forward, boolean backward) {
    Type t = Types.parse(target);
    Type s = Types.parse(source);
    assertThat(Types.isAssignable(t, s)).as("%s <- %s", target, source).isEqualTo(forward);
    assertThat(Types.isAssignable(s, t)).as("%s <- %s", source, target).isEqualTo(backward);
    assertThat(Types.isEquivalent(t, s)).isEqualTo(forward && backward);
    assertThat(Types.isEquivalent(s, t)).isEqualTo(forward && backward);
  }

  static Stream<Arguments> compatibility() {
    return Stream.of(
        // type, sum, mean, min/max
        Arguments.of("int32[3]", true, false, true),
        Arguments.of("float32", true, true, true),
        Arguments.of("float32[?]", false, true, true),
        Arguments.of("float64[...]", false, true, true),
        Arguments.of("bool", false, false, false),
        Arguments.of("string", false, false, false),
        Arguments.of("complex64", true, true, false),
        Arguments.of("uint8[2,2]", true, false, true),
        Arguments.of("<a=float32[2],b=float64>", true, true, true),
        Arguments.of("<float32,int32>", true, false, true),
        Arguments.of("<>", true, true, true),
        Arguments.of("{float32}@CLIENTS", true, true, true),
        Arguments.of("float32*", false, false, false),
        Arguments.of("( -> float32)", false, false, false),
        Arguments.of("T", false, false, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("compatibility")
  void compatibility_type_matchesAggregationRules(
      String type, boolean sum, boolean mean, boolean minMax) {
    Type t = Types.parse(type);
    assertThat(Types.isSumCompatible(t)).as("sum").isEqualTo(sum);
    assertThat(Types.isMeanCompatible(t)).as("mean").isEqualTo(mean);
    assertThat(Types.isMinMaxCompatible(t)).as("min/max").isEqualTo(minMax);
  }
}
