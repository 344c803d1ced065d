package io.tributary.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import org.junit.jupiter.api.Test;

class TypesBuildersTest {
  private static final Type BATCH = Types.parse("<x=float32[?,64],y=int64[?]>");

  @Test
  void atClients_sequenceOfBatches_equalsTheParsedNotation() {
    Type t = Types.atClients(Types.sequence(BATCH));
    assertThat(t).isEqualTo(Types.parse("{<x=float32[?,64],y=int64[?]>*}@CLIENTS"));
    assertThat(t.compact()).isEqualTo("{<x=float32[?,64],y=int64[?]>*}@CLIENTS");
  }

  @Test
  void atServerAndAtClientsAllEqual_member_equalTheParsedNotation() {
    Type model = Types.parse("<w=float32[2,3]>");
    assertThat(Types.atServer(model)).isEqualTo(Types.parse("<w=float32[2,3]>@SERVER"));
    assertThat(Types.atClientsAllEqual(model)).isEqualTo(Types.parse("<w=float32[2,3]>@CLIENTS"));
  }

  @Test
  void tensor_dimsWithUnknown_equalsTheParsedNotation() {
    assertThat(Types.tensor(DType.FLOAT32, TensorType.UNKNOWN_DIM, 64))
        .isEqualTo(Types.parse("float32[?,64]"));
    assertThat(Types.tensor(DType.INT64)).isEqualTo(Types.parse("int64"));
  }

  @Test
  void structAndNamedAndFunction_elements_equalTheParsedNotation() {
    Type f32 = Types.tensor(DType.FLOAT32);
    assertThat(Types.struct(f32, BATCH)).isEqualTo(Types.parse("<float32," + BATCH + ">"));
    assertThat(Types.named("loss", f32, "n", Types.tensor(DType.INT64)))
        .isEqualTo(Types.parse("<loss=float32,n=int64>"));
    assertThat(Types.function(Types.atClients(f32), Types.atServer(f32)))
        .isEqualTo(Types.parse("({float32}@CLIENTS -> float32@SERVER)"));
  }

  @Test
  void named_argumentsNotNameTypePairs_throwsNamingTheArgument() {
    assertThatThrownBy(() -> Types.named("loss", "float32"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("argument 1");
    assertThatThrownBy(() -> Types.named(BATCH, BATCH))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("argument 0");
  }

  @Test
  void atClients_federatedMember_isRefusedByTheNestingRules() {
    assertThatThrownBy(() -> Types.atClients(Types.atServer(BATCH)))
        .isInstanceOf(NestingException.class);
  }
}
