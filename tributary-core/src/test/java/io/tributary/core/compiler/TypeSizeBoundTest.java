package io.tributary.core.compiler;

import static io.tributary.core.compiler.Blocks.let;
import static io.tributary.core.compiler.Blocks.local;
import static io.tributary.core.compiler.Blocks.ref;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.proto.ComputationProtos;
import io.tributary.core.proto.LocalResolver;
import io.tributary.core.proto.MalformedComputationException;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile computations whose inferred types double at each block local, and whose names are
 * long: checked, printed and refused in bounded time and memory.
 */
@Timeout(30)
class TypeSizeBoundTest {
  /** {@code let x0 = 1, x1 = <a=x0, b=x0>, ..., xn = <a=x(n-1), b=x(n-1)> in xn}. */
  private static BuildingBlock doubling(int n, String prefix) {
    List<Block.Local> locals = new ArrayList<>();
    locals.add(local(prefix + 0, new Literal(Tensor.ofInts(Shape.scalar(), 1))));
    for (int i = 1; i <= n; i++) {
      locals.add(local(prefix + i, new Struct(List.of(
          new Struct.Element(Optional.of("a"), ref(prefix + (i - 1))),
          new Struct.Element(Optional.of("b"), ref(prefix + (i - 1)))))));
    }
    return let(locals, ref(prefix + n));
  }

  @Test
  void check_typesDoublingSixtyTimes_refusedAsTooLargeNamingThePath() {
    CheckResult r = TypeChecker.check(doubling(60, "x"));

    assertThat(r.ok()).isFalse();
    assertThat(r.diagnostics()).singleElement().satisfies(d -> {
      assertThat(d.path()).startsWith("$.locals[x");
      assertThat(d.message()).startsWith("the type is too large");
    });
  }

  @Test
  void check_typesDoublingWithinTheBound_accepted() {
    CheckResult r = TypeChecker.check(doubling(10, "x"));

    assertThat(r.ok()).isTrue();
    assertThat(r.type().orElseThrow().compact()).hasSizeLessThan(60_000);
  }

  @Test
  void compact_sharedTypeOfAstronomicalSize_printsAtMost4096Characters() {
    Type t = TensorType.of(DType.FLOAT32, 3);
    for (int i = 0; i < 200; i++) {
      t = new StructType(List.of(new StructType.Element(Optional.of("a"), t),
          new StructType.Element(Optional.of("b"), t)));
    }

    String s = t.compact();

    assertThat(s).hasSize(4096 + 3).endsWith("...");
  }

  @Test
  void check_deepBlocksWithLongNames_pathsStayShort() {
    String name = "n".repeat(4000);
    BuildingBlock b = new Reference("missing");
    for (int i = 0; i < 300; i++) {
      b = let(List.of(local(name + i, new Literal(Tensor.ofInts(Shape.scalar(), i)))), b);
    }

    CheckResult r = TypeChecker.check(b);

    assertThat(r.diagnostics()).singleElement().satisfies(d -> {
      assertThat(d.path().length()).isLessThanOrEqualTo(Diagnostic.MAX_PART + 40);
      assertThat(d.toString()).hasSizeLessThan(20_000);
    });
  }

  @Test
  void check_longUnboundReferences_eachMessageEchoesACutName() {
    List<Struct.Element> bad = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      bad.add(new Struct.Element(Optional.empty(), new Reference("u" + "x".repeat(4000) + i)));
    }
    BuildingBlock block = new Struct(bad);

    CheckResult r = TypeChecker.check(block);

    assertThat(r.diagnostics()).hasSize(1000);
    assertThat(r.diagnostics().get(0).message()).hasSizeLessThan(400);
  }

  @Test
  void fromBytes_garbage_isMalformedNotAnInternalError() {
    assertThatThrownBy(() -> ComputationProtos.fromBytes(new byte[] {0x1a, 0x7f, 1},
        LocalResolver.none())).isInstanceOf(MalformedComputationException.class);
  }
}
