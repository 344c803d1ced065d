package io.tributary.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.DefinitionException;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Param;
import io.tributary.core.computation.Value;
import io.tributary.core.types.Placement;
import io.tributary.core.types.Types;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuthoringApiTest {
  private static final Computation SQUARE =
      Federated.local("square", "(float32 -> float32)", x -> x);

  @Test
  void computation_issueExample_isCheckedAndPrinted() {
    Computation avg = Federated.computation(Types.parse("{float32}@CLIENTS"),
        readings -> Intrinsics.federatedMean(readings));
    assertThat(avg.type().compact()).isEqualTo("({float32}@CLIENTS -> float32@SERVER)");
    assertThat(avg.print()).isEqualTo("(arg -> federated_mean(arg))");
  }

  @Test
  void computation_namedParameter_printsWithItsName() {
    Computation avg = Federated.computation(Param.of("readings", "{float32}@CLIENTS"),
        readings -> Intrinsics.federatedMean(readings));
    assertThat(avg.print()).isEqualTo("(readings -> federated_mean(readings))");
  }

  @Test
  void computation_severalParameters_becomeStructParameter() {
    Computation c = Federated.computation(
        List.of(Param.of("x", "{float32}@CLIENTS"), Param.of("w", "{float32}@CLIENTS")),
        args -> Intrinsics.federatedWeightedMean(args.get("x"), args.get("w")));
    assertThat(c.type().compact())
        .isEqualTo("(<x={float32}@CLIENTS,w={float32}@CLIENTS> -> float32@SERVER)");
    assertThat(c.print()).isEqualTo("(arg -> federated_weighted_mean(<arg.x,arg.w>))");

    Computation two = Federated.computation(Types.parse("int32@SERVER"),
        Types.parse("{int32}@CLIENTS"),
        (a, b) -> Federated.struct(Intrinsics.federatedBroadcast(a), Intrinsics.federatedSum(b)));
    assertThat(two.type().compact())
        .isEqualTo("(<int32@SERVER,{int32}@CLIENTS> -> <int32@CLIENTS,int32@SERVER>)");
  }

  @Test
  void intrinsics_structOfPlacedValues_isZippedImplicitly() {
    Computation c = Federated.computation(
        Types.parse("<a={float32}@CLIENTS,b={float64}@CLIENTS>"),
        pair -> Intrinsics.federatedMean(pair));
    assertThat(c.type().compact())
        .isEqualTo("(<a={float32}@CLIENTS,b={float64}@CLIENTS> -> <a=float32,b=float64>@SERVER)");
    assertThat(c.print()).isEqualTo("(arg -> federated_mean(federated_zip_at_clients(arg)))");

    Computation m = Federated.computation(Types.parse("float32@SERVER"),
        Types.parse("{float32}@CLIENTS"),
        (s, x) -> Intrinsics.federatedMap(
            Federated.local("add", "(<float32,float32> -> float32)", v -> v),
            Federated.struct(Intrinsics.federatedBroadcast(s), x)));
    assertThat(m.print()).isEqualTo("(arg -> federated_map(<java:add,federated_zip_at_clients("
        + "<federated_broadcast(arg[0]),arg[1]>)>))");
    assertThat(m.type().result().compact()).isEqualTo("{float32}@CLIENTS");
  }

  @Test
  void federatedMap_dispatchesOnPlacement() {
    Computation server = Federated.computation(Types.parse("float32@SERVER"),
        s -> Intrinsics.federatedMap(SQUARE, s));
    assertThat(server.print()).isEqualTo("(arg -> federated_apply(<java:square,arg>))");
    Computation allEqual = Federated.computation(Types.parse("float32@CLIENTS"),
        s -> Intrinsics.federatedMap(SQUARE, s));
    assertThat(allEqual.type().compact()).isEqualTo("(float32@CLIENTS -> float32@CLIENTS)");
    assertThat(allEqual.print()).startsWith("(arg -> federated_map_all_equal(");
  }

  @Test
  void computation_callInsideAnother_nests() {
    Computation avg = Federated.computation(Param.of("readings", "{float32}@CLIENTS"),
        readings -> Intrinsics.federatedMean(readings));
    Computation twice = Federated.computation(Types.parse("{float32}@CLIENTS"),
        x -> {
          Value mean = avg.call(x);
          return Federated.struct(mean, Intrinsics.federatedBroadcast(mean));
        });
    assertThat(twice.type().compact())
        .isEqualTo("({float32}@CLIENTS -> <float32@SERVER,float32@CLIENTS>)");
    assertThat(twice.print()).isEqualTo(
        "(arg -> (let call0=(readings -> federated_mean(readings))(arg)"
            + " in <call0,federated_broadcast(call0)>))");
  }

  @Test
  void computation_noParameter_usesConstants() {
    Computation c = Federated.computation(
        () -> Intrinsics.federatedValue(Federated.constant(Tensor.scalar(1.5f)),
            Placement.SERVER));
    assertThat(c.type().compact()).isEqualTo("( -> float32@SERVER)");
    assertThat(c.print()).isEqualTo("( -> federated_value_at_server(float32(1.5)))");
  }

  @Test
  void value_getOnPlacedStruct_selectsMemberwise() {
    Computation c = Federated.computation(Types.parse("{<a=float32,b=int32>}@CLIENTS"),
        x -> Intrinsics.federatedSum(x.get("b")));
    assertThat(c.type().compact()).isEqualTo("({<a=float32,b=int32>}@CLIENTS -> int32@SERVER)");
    assertThat(c.print())
        .isEqualTo("(arg -> federated_sum(federated_map(<(x -> x.b),arg>)))");
  }

  @Test
  void definition_wrongDtype_failsAtDefinitionNamingIntrinsicTypesAndLine() {
    DefinitionException e = catchThrowableOfType(DefinitionException.class,
        () -> Federated.computation(Types.parse("{int32}@CLIENTS"),
            readings -> Intrinsics.federatedMean(readings)));
    int line = lineOf("readings -> Intrinsics.federatedMean(readings)));");
    assertThat(e).isNotNull();
    assertThat(e.operation()).isEqualTo("federated_mean");
    assertThat(e.expected()).isEqualTo("{T}@CLIENTS where T is made of floating tensors");
    assertThat(e.actual()).isEqualTo("{int32}@CLIENTS");
    assertThat(e.callSite()).isPresent();
    assertThat(e.callSite().get().getFileName()).isEqualTo("AuthoringApiTest.java");
    assertThat(e.callSite().get().getLineNumber()).isEqualTo(line);
    assertThat(e.getMessage())
        .startsWith("federated_mean at AuthoringApiTest.java:" + line)
        .contains("expected {T}@CLIENTS where T is made of floating tensors")
        .contains("actual {int32}@CLIENTS");
  }

  @Test
  void definition_wrongPlacement_failsAtDefinition() {
    DefinitionException e = catchThrowableOfType(DefinitionException.class,
        () -> Federated.computation(Types.parse("float32@SERVER"),
            s -> Intrinsics.federatedSum(s)));
    assertThat(e.operation()).isEqualTo("federated_sum");
    assertThat(e.actual()).isEqualTo("float32@SERVER");
    assertThat(e.getMessage()).contains("expected a value placed at CLIENTS")
        .contains("AuthoringApiTest.java:" + lineOf("s -> Intrinsics.federatedSum(s)));"));
  }

  @Test
  void definition_wrongArgumentToNestedComputation_fails() {
    Computation avg = Federated.computation(Types.parse("{float32}@CLIENTS"),
        r -> Intrinsics.federatedMean(r));
    DefinitionException e = catchThrowableOfType(DefinitionException.class,
        () -> Federated.computation(Types.parse("{float64}@CLIENTS"), x -> avg.call(x)));
    assertThat(e.operation()).isEqualTo("call of ({float32}@CLIENTS -> float32@SERVER)");
    assertThat(e.expected()).isEqualTo("{float32}@CLIENTS");
    assertThat(e.actual()).isEqualTo("{float64}@CLIENTS");
  }

  @Test
  void definition_outerValueCapturedByInnerComputation_fails() {
    DefinitionException e = catchThrowableOfType(DefinitionException.class,
        () -> Federated.computation(Types.parse("{float32}@CLIENTS"), outer -> {
          Federated.computation(Types.parse("int32"), inner -> outer);
          return outer;
        }));
    assertThat(e).isNotNull();
    assertThat(e.getMessage()).contains("enclosing computation");
  }

  @Test
  void definition_badSelection_fails() {
    DefinitionException e = catchThrowableOfType(DefinitionException.class,
        () -> Federated.computation(Types.parse("<a=int32>"), x -> x.get("b")));
    assertThat(e.actual()).isEqualTo("<a=int32>");
    assertThat(e.getMessage()).contains("no such element");
  }

  /** The line number of the first line of this file containing {@code text}. */
  private static int lineOf(String text) {
    try {
      List<String> lines = java.nio.file.Files.readAllLines(java.nio.file.Path.of(
          System.getProperty("user.dir"),
          "src/test/java/io/tributary/examples/AuthoringApiTest.java"));
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).contains(text)) {
          return i + 1;
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    throw new AssertionError("not found: " + text);
  }

  @Test
  void struct_unorderedMap_elementsSortedByName() {
    Computation c = Federated.computation(
        Types.atServer(Types.tensor(DType.INT32)), Types.atClients(Types.tensor(DType.INT32)),
        (a, b) -> Federated.struct(Map.of("sum", Intrinsics.federatedSum(b), "model", a)));
    assertThat(c.type().result().compact()).isEqualTo("<model=int32@SERVER,sum=int32@SERVER>");
  }

  @Test
  void struct_linkedHashMap_keepsInsertionOrder() {
    Computation c = Federated.computation(
        Types.atServer(Types.tensor(DType.INT32)), Types.atClients(Types.tensor(DType.INT32)),
        (a, b) -> {
          Map<String, Value> m = new LinkedHashMap<>();
          m.put("sum", Intrinsics.federatedSum(b));
          m.put("model", a);
          return Federated.struct(m);
        });
    assertThat(c.type().result().compact()).isEqualTo("<sum=int32@SERVER,model=int32@SERVER>");
  }
}
