package io.tributary.runtime.executor.internal.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Reference;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ClosureTypesTest {
  private static final Type F32 = Types.parse("float32");
  private static final Type I32 = Types.parse("int32");

  /** (y -> x): one free name, x. */
  private static Lambda capturingX() {
    return Lambda.of("y", F32, new Reference("x"));
  }

  @Test
  void freeNames_sameLambdaTwice_computesOnce() {
    ClosureTypes memo = new ClosureTypes();
    Lambda l = capturingX();
    AtomicInteger computed = new AtomicInteger();
    for (int i = 0; i < 3; i++) {
      assertThat(memo.freeNames(l, x -> {
        computed.incrementAndGet();
        return List.of("x");
      })).containsExactly("x");
    }
    assertThat(computed.get()).isEqualTo(1);
  }

  @Test
  void freeNames_equalButDistinctLambda_computesAgain() {
    ClosureTypes memo = new ClosureTypes();
    AtomicInteger computed = new AtomicInteger();
    memo.freeNames(capturingX(), x -> List.of("x" + computed.incrementAndGet()));
    List<String> again = memo.freeNames(capturingX(),
        x -> List.of("x" + computed.incrementAndGet()));
    assertThat(again).containsExactly("x2");
  }

  @Test
  void type_sameCapturedTypes_isRemembered() {
    ClosureTypes memo = new ClosureTypes();
    Lambda l = capturingX();
    memo.freeNames(l, x -> List.of("x"));
    Type fn = Types.parse("(float32 -> float32)");
    memo.remember(l, List.of(F32), new ClosureTypes.Inferred(fn, true));
    assertThat(memo.type(l, List.of(Types.parse("float32"))))
        .contains(new ClosureTypes.Inferred(fn, true));
  }

  @Test
  void type_otherCapturedTypes_isNotRemembered() {
    ClosureTypes memo = new ClosureTypes();
    Lambda l = capturingX();
    memo.freeNames(l, x -> List.of("x"));
    memo.remember(l, List.of(F32),
        new ClosureTypes.Inferred(Types.parse("(float32 -> float32)"), true));
    assertThat(memo.type(l, List.of(I32))).isEmpty();
    memo.remember(l, List.of(I32),
        new ClosureTypes.Inferred(Types.parse("(float32 -> int32)"), true));
    assertThat(memo.type(l, List.of(I32)).orElseThrow().type())
        .isEqualTo(Types.parse("(float32 -> int32)"));
    assertThat(memo.type(l, List.of(F32))).isEmpty();
  }

  @Test
  void type_lambdaNeverSeen_isEmptyAndRememberIgnoresIt() {
    ClosureTypes memo = new ClosureTypes();
    Lambda l = capturingX();
    memo.remember(l, List.of(F32),
        new ClosureTypes.Inferred(Types.parse("(float32 -> float32)"), true));
    assertThat(memo.type(l, List.of(F32))).isEmpty();
    assertThat(memo.size()).isZero();
  }

  @Test
  void freeNames_moreLambdasThanTheBound_keepsAtMostTheBound() {
    ClosureTypes memo = new ClosureTypes();
    for (int i = 0; i < ClosureTypes.MAX_LAMBDAS + 10; i++) {
      memo.freeNames(capturingX(), x -> List.of("x"));
      assertThat(memo.size()).isLessThanOrEqualTo(ClosureTypes.MAX_LAMBDAS);
    }
  }
}
