package io.tributary.core.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Call;
import io.tributary.core.compiler.CheckResult;
import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Reference;
import io.tributary.core.compiler.Selection;
import io.tributary.core.compiler.TypeCheckException;
import io.tributary.core.compiler.TypeChecker;
import io.tributary.core.proto.internal.Computation;
import io.tributary.core.types.RandomTypes;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ComputationProtosTest {
  @Property(tries = 1000)
  void fromProto_randomWellTypedComputation_roundTrips(@ForAll long seed) throws Exception {
    RandomComputations.Typed c = new RandomComputations(new Random(seed)).any(4);
    CheckResult check = TypeChecker.check(c.block());
    assertThat(check.diagnostics()).as(c.block().toString()).isEmpty();
    assertThat(check.type()).contains(c.type());
    Computation proto = ComputationProtos.toProto(c.block());
    assertThat(TypeProtos.fromProto(proto.getType())).isEqualTo(c.type());
    assertThat(ComputationProtos.fromProto(proto, RandomComputations.LOCALS))
        .isEqualTo(c.block());
    byte[] bytes = proto.toByteArray();
    assertThat(ComputationProtos.fromBytes(bytes, RandomComputations.LOCALS))
        .isEqualTo(c.block());
  }

  @Property(tries = 1000)
  void typeFromProto_randomType_roundTrips(@ForAll long seed) throws Exception {
    Type t = new RandomTypes(new Random(seed)).any(4);
    assertThat(TypeProtos.fromProto(TypeProtos.toProto(t))).isEqualTo(t);
    assertThat(TypeProtos.fromBytes(TypeProtos.toBytes(t))).isEqualTo(t);
  }

  @Test
  void toProto_selectionByName_isWrittenAsIndex() throws Exception {
    BuildingBlock b = Lambda.of("x", Types.parse("<a=int32,b=float32>"),
        Selection.byName(new Reference("x"), "b"));
    Computation proto = ComputationProtos.toProto(b);
    assertThat(proto.getLambda().getResult().getSelection().getIndex()).isEqualTo(1);
    assertThat(proto.getType().getFunction().getResult().getTensor().getDtypeValue())
        .isEqualTo(1);
    assertThat(ComputationProtos.fromProto(proto, LocalResolver.none())).isEqualTo(
        Lambda.of("x", Types.parse("<a=int32,b=float32>"),
            Selection.byIndex(new Reference("x"), 1)));
  }

  @Test
  void toProto_illTyped_throwsWithDiagnostics() {
    BuildingBlock bad = Lambda.of("x", Types.parse("{int32}@CLIENTS"),
        Call.of(new Intrinsic("federated_mean", Types.parse("({int32}@CLIENTS -> int32@SERVER)")),
            new Reference("x")));
    TypeCheckException e = catchThrowableOfType(TypeCheckException.class,
        () -> ComputationProtos.toProto(bad));
    assertThat(e.diagnostics()).hasSize(1);
    assertThat(e.getMessage()).contains("federated_mean").contains("{int32}@CLIENTS");
  }

  @Test
  void fromBytes_garbage_throwsMalformed() {
    assertThatThrownBy(() -> ComputationProtos.fromBytes(new byte[] {0x0a, 0x7f, 1},
        LocalResolver.none()))
        .isInstanceOf(MalformedComputationException.class)
        .hasMessageContaining("not a Computation message");
  }
}
