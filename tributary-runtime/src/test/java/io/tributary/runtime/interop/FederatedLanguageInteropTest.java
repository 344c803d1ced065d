package io.tributary.runtime.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Data;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Param;
import io.tributary.core.computation.Value;
import io.tributary.core.proto.ComputationProtos;
import io.tributary.core.proto.LocalResolver;
import io.tributary.core.proto.TypeProtos;
import io.tributary.core.types.Placement;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.testing.PythonEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tributary against the real federated-language (the snapshot in {@code ../shared/peers/}).
 *
 * <p>One way, federated-language builds computations (every intrinsic, structs, selections,
 * lambdas, blocks, literals of every dtype, data) and numpy computes their results; Tributary
 * reads each, checks its type equals federated-language's, runs it on the same values and must
 * give numpy's result. The other way, Tributary writes a computation for every intrinsic and
 * federated-language's own building blocks read them back (its {@code Intrinsic} constructor
 * checks each intrinsic's type against the template) with types equal to Tributary's.
 */
@Timeout(900)
class FederatedLanguageInteropTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static Path script() {
    return PythonEnv.projectRoot()
        .resolve("tributary-runtime/src/test/resources/interop/federated_language_interop.py");
  }

  @Test
  void invoke_computationsWrittenByFederatedLanguage_giveNumpysResults() throws Exception {
    FederatedLanguageEnv fl = FederatedLanguageEnv.require();
    Path cases = Files.createDirectories(dir.resolve("from-fl"));
    fl.run(script(), dir, "write", cases.toString());
    JsonNode manifest = JSON.readTree(cases.resolve("cases.json").toFile());
    assertThat(manifest.size()).isGreaterThanOrEqualTo(48);
    SoftAssertions soft = new SoftAssertions();
    for (JsonNode c : manifest) {
      String name = c.get("name").asText();
      String where = name + " " + c.get("body").asText();
      BuildingBlock block = ComputationProtos.fromBytes(
          Files.readAllBytes(cases.resolve(name + ".pb")), LocalResolver.none());
      Computation computation = Computation.of(block);
      Type flType = TypeProtos.fromBytes(Base64.getDecoder().decode(c.get("type").asText()));
      soft.assertThat(computation.type()).as("type of %s", where).isEqualTo(flType);

      RuntimeOptions options = RuntimeOptions.defaults().withThreads(2);
      if (!c.get("clients").isNull()) {
        options = options.withPopulation(c.get("clients").asInt());
      }
      Map<String, Object> data = new LinkedHashMap<>();
      c.get("data").fields().forEachRemaining(e -> data.put(e.getKey(), decode(e.getValue())));
      options = options.withData(data);
      Object result;
      try (ExecutionContext context = ExecutionContext.create(options)) {
        result = c.get("args").isNull()
            ? context.invoke(computation)
            : context.invoke(computation, decode(c.get("args")));
      } catch (RuntimeException e) {
        soft.fail("%s failed: %s", where, e);
        continue;
      }
      List<String> problems = new ArrayList<>();
      compare(result, c.get("expected"), "$", problems);
      soft.assertThat(problems).as("result of %s", where).isEmpty();
    }
    soft.assertAll();
  }

  /**
   * federated-language has no EDGES placement: a computation that uses it, even only in a type,
   * is refused there, while the same manifest's two-tier control is read.
   */
  @Test
  void fromProto_computationsWithEdges_areRefusedByFederatedLanguage() throws Exception {
    FederatedLanguageEnv fl = FederatedLanguageEnv.require();
    Path out = Files.createDirectories(dir.resolve("edges"));
    Map<String, Computation> written = new LinkedHashMap<>();
    written.put("control_two_tier", Federated.computation(Types.parse("{float32}@CLIENTS"),
        Intrinsics::federatedMean));
    written.put("edges_type_only", Federated.computation(Types.parse("{float32}@EDGES"),
        x -> x));
    written.put("edges_intrinsics", Federated.computation(Types.parse("{float32}@CLIENTS"),
        x -> Intrinsics.federatedMeanFromEdges(Intrinsics.federatedMeanToEdges(x))));
    for (Map.Entry<String, Computation> e : written.entrySet()) {
      Files.write(out.resolve(e.getKey() + ".pb"), ComputationProtos.toBytes(e.getValue().block()));
    }
    JSON.writeValue(out.resolve("manifest.json").toFile(), List.copyOf(written.keySet()));
    JsonNode read = JSON.readTree(fl.run(script(), dir, "read", out.toString()));
    assertThat(read.get("control_two_tier").has("error")).as(read.toString()).isFalse();
    assertThat(read.get("edges_type_only").path("error").asText()).as(read.toString())
        .contains("edges");
    assertThat(read.get("edges_intrinsics").has("error")).as(read.toString()).isTrue();
  }

  @Test
  void fromProto_computationsWrittenByTributary_readByFederatedLanguageWithEqualTypes()
      throws Exception {
    FederatedLanguageEnv fl = FederatedLanguageEnv.require();
    Path out = Files.createDirectories(dir.resolve("from-tributary"));
    Map<String, Computation> written = tributaryComputations();
    for (Map.Entry<String, Computation> e : written.entrySet()) {
      Files.write(out.resolve(e.getKey() + ".pb"), ComputationProtos.toBytes(e.getValue().block()));
    }
    JSON.writeValue(out.resolve("manifest.json").toFile(), List.copyOf(written.keySet()));
    JsonNode read = JSON.readTree(fl.run(script(), dir, "read", out.toString()));
    SoftAssertions soft = new SoftAssertions();
    for (Map.Entry<String, Computation> e : written.entrySet()) {
      JsonNode r = read.get(e.getKey());
      String where = e.getKey() + " " + e.getValue().print();
      if (r.has("error")) {
        soft.fail("federated-language refused %s: %s", where, r.get("error").asText());
        continue;
      }
      Type flType = TypeProtos.fromBytes(Base64.getDecoder().decode(r.get("type").asText()));
      soft.assertThat(flType).as("federated-language's type of %s (%s)", where,
          r.get("text").asText()).isEqualTo(e.getValue().type());
    }
    soft.assertAll();
  }

  /** One computation per intrinsic (and per form of it), written with the authoring API. */
  private static Map<String, Computation> tributaryComputations() {
    Map<String, Computation> c = new LinkedHashMap<>();
    Type f32 = Types.parse("float32");
    Type i32 = Types.parse("int32");
    Computation pair = Federated.computation(i32, x -> Federated.struct(x, x));
    Computation plus = Federated.computation(Types.parse("<int32,int32>"),
        x -> Intrinsics.genericPlus(x.get(0), x.get(1)));
    Computation selectFn = Federated.computation(Types.parse("<int32,int32>"),
        x -> Federated.struct(x.get(0), x.get(1)));
    put(c, "broadcast", "int32@SERVER", Intrinsics::federatedBroadcast);
    put(c, "sum_of_all_equal", "int32@SERVER",
        x -> Intrinsics.federatedSum(Intrinsics.federatedBroadcast(x)));
    put(c, "sum", "{int32}@CLIENTS", Intrinsics::federatedSum);
    put(c, "mean_of_all_equal", "<a=float32,b=float64[2]>@SERVER",
        x -> Intrinsics.federatedMean(Intrinsics.federatedBroadcast(x)));
    put(c, "mean", "{float32}@CLIENTS", Intrinsics::federatedMean);
    put(c, "weighted_mean_of_all_equal", "<float32@SERVER,{float32}@CLIENTS>",
        x -> Intrinsics.federatedWeightedMean(Intrinsics.federatedBroadcast(x.get(0)),
            x.get(1)));
    put(c, "min_of_all_equal", "int32@SERVER",
        x -> Intrinsics.federatedMin(Intrinsics.federatedBroadcast(x)));
    put(c, "max", "{float64[3]}@CLIENTS", Intrinsics::federatedMax);
    put(c, "aggregate", "{int32}@CLIENTS", x -> Intrinsics.federatedAggregate(x,
        Federated.constant(Tensor.ofInts(Shape.scalar(), 0)), plus, plus, pair));
    put(c, "secure_sum_of_all_equal", "int32@SERVER", x -> Intrinsics.federatedSecureSum(
        Intrinsics.federatedBroadcast(x), Federated.constant(Tensor.ofInts(Shape.scalar(), 9))));
    put(c, "secure_sum_bitwidth", "{int32}@CLIENTS", x -> Intrinsics.federatedSecureSumBitwidth(
        x, Federated.constant(Tensor.ofInts(Shape.scalar(), 8))));
    put(c, "zip_at_clients_of_all_equal", "<int32@SERVER,{float32}@CLIENTS>",
        x -> Intrinsics.federatedZip(Federated.struct(Intrinsics.federatedBroadcast(x.get(0)),
            x.get(1))));
    put(c, "zip_at_server", "<a=int32@SERVER,b=float32@SERVER>", Intrinsics::federatedZip);
    put(c, "map", "{int32}@CLIENTS", x -> Intrinsics.federatedMap(pair, x));
    put(c, "map_all_equal", "int32@SERVER",
        x -> Intrinsics.federatedMap(pair, Intrinsics.federatedBroadcast(x)));
    put(c, "apply", "int32@SERVER", x -> Intrinsics.federatedApply(pair, x));
    c.put("value_at_clients", Federated.computation(() -> Intrinsics.federatedValue(
        Federated.constant(Tensor.ofInts(Shape.scalar(), 3)), Placement.CLIENTS)));
    c.put("value_at_server", Federated.computation(() -> Intrinsics.federatedValue(
        Federated.constant(Tensor.ofFloats(Shape.of(2), 1.5f, 2f)), Placement.SERVER)));
    Computation one = Federated.computation(
        () -> Federated.constant(Tensor.ofFloats(Shape.scalar(), 1f)));
    c.put("eval_at_clients", Federated.computation(
        () -> Intrinsics.federatedEval(one, Placement.CLIENTS)));
    c.put("eval_at_server", Federated.computation(
        () -> Intrinsics.federatedEval(one, Placement.SERVER)));
    put(c, "select", "<{int32[2]}@CLIENTS,int32@SERVER,int32@SERVER>",
        x -> Intrinsics.federatedSelect(x.get(0), x.get(1), x.get(2), selectFn));
    put(c, "secure_select", "<{int32[2]}@CLIENTS,int32@SERVER,int32@SERVER>",
        x -> Intrinsics.federatedSecureSelect(x.get(0), x.get(1), x.get(2), selectFn));
    put(c, "sequence_map", "int32*", x -> Intrinsics.sequenceMap(pair, x));
    put(c, "sequence_reduce", "int32*", x -> Intrinsics.sequenceReduce(x,
        Federated.constant(Tensor.ofInts(Shape.scalar(), 0)), plus));
    put(c, "sequence_sum", "float32[2]*", Intrinsics::sequenceSum);
    put(c, "generic_plus", "<float32[2],float32[2]>",
        x -> Intrinsics.genericPlus(x.get(0), x.get(1)));
    put(c, "generic_multiply", "<int64,int64>",
        x -> Intrinsics.genericMultiply(x.get(0), x.get(1)));
    put(c, "generic_divide", "<int16[3],int16[3]>",
        x -> Intrinsics.genericDivide(x.get(0), x.get(1)));
    c.put("generic_zero", Federated.computation(
        () -> Intrinsics.genericZero(Types.parse("<float32[2],int32>"))));
    c.put("data", Computation.of(Lambda.noParameter(
        new Data("mem://train", Types.parse("{float32[4]*}@CLIENTS")))));
    c.put("server_not_all_equal", Federated.computation(
        Param.of("x", "{int32}@SERVER"), x -> x));
    assertThat(f32).isNotEqualTo(i32);
    return c;
  }

  private static void put(Map<String, Computation> c, String name, String parameter,
      java.util.function.Function<Value, Value> body) {
    c.put(name, Federated.computation(Types.parse(parameter), body));
  }

  // --------------------------------------------------------------------------- values

  /** A JSON value of the interop script as a runtime value. */
  static Object decode(JsonNode v) {
    if (v.has("struct")) {
      List<Optional<String>> names = new ArrayList<>();
      List<Object> values = new ArrayList<>();
      for (JsonNode e : v.get("struct")) {
        names.add(e.get(0).isNull() ? Optional.empty() : Optional.of(e.get(0).asText()));
        values.add(decode(e.get(1)));
      }
      return StructValue.of(names, values);
    }
    if (v.has("sequence") || v.has("clients")) {
      List<Object> values = new ArrayList<>();
      for (JsonNode e : v.has("sequence") ? v.get("sequence") : v.get("clients")) {
        values.add(decode(e));
      }
      return values;
    }
    long[] shape = new long[v.get("shape").size()];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = v.get("shape").get(i).asLong();
    }
    if (v.has("strings")) {
      List<String> s = new ArrayList<>();
      v.get("strings").forEach(x -> s.add(x.asText()));
      return Tensor.ofStrings(Shape.of(shape), s.toArray(String[]::new));
    }
    return Tensor.fromLittleEndian(DType.fromName(v.get("dtype").asText()), Shape.of(shape),
        Base64.getDecoder().decode(v.get("data").asText()));
  }

  /** Relative tolerance for one rounding in the runtime's double-precision arithmetic. */
  private static double tolerance(DType d) {
    return switch (d) {
      case FLOAT16, BFLOAT16 -> 1e-2;
      case FLOAT32, COMPLEX64 -> 1e-6;
      default -> 1e-12;
    };
  }

  /** Records where {@code actual} differs from the expected JSON value. */
  private static void compare(Object actual, JsonNode expected, String path, List<String> out) {
    Supplier<String> at = () -> path + ": expected " + expected + " but got " + actual;
    if (expected.has("struct")) {
      if (!(actual instanceof StructValue s) || s.size() != expected.get("struct").size()) {
        out.add(at.get());
        return;
      }
      for (int i = 0; i < s.size(); i++) {
        JsonNode e = expected.get("struct").get(i);
        Optional<String> name = e.get(0).isNull() ? Optional.empty()
            : Optional.of(e.get(0).asText());
        if (!s.names().get(i).equals(name)) {
          out.add(path + "[" + i + "]: name " + s.names().get(i) + ", expected " + name);
        }
        compare(s.get(i), e.get(1), path + "[" + i + "]", out);
      }
      return;
    }
    if (expected.has("sequence") || expected.has("clients")) {
      JsonNode items = expected.has("sequence") ? expected.get("sequence")
          : expected.get("clients");
      List<Object> list = new ArrayList<>();
      if (actual instanceof Iterable<?> it) {
        it.forEach(list::add);
      } else {
        out.add(at.get());
        return;
      }
      if (list.size() != items.size()) {
        out.add(path + ": " + list.size() + " items, expected " + items.size());
        return;
      }
      for (int i = 0; i < list.size(); i++) {
        compare(list.get(i), items.get(i), path + "{" + i + "}", out);
      }
      return;
    }
    Tensor want = (Tensor) decode(expected);
    if (!(actual instanceof Tensor got) || got.dtype() != want.dtype()
        || !got.shape().equals(want.shape())) {
      out.add(at.get());
      return;
    }
    boolean equal = want.dtype().isFloating() || want.dtype().isComplex()
        ? got.allClose(want, tolerance(want.dtype()), 0)
        : got.equals(want);
    if (!equal) {
      out.add(at.get());
    }
  }
}
