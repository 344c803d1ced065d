package io.tributary.core.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.PlacementLiteral;
import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.Placement;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import org.junit.jupiter.api.Test;

/** The EDGES placement in computation.proto: its uri, types and tier intrinsics round-trip. */
class EdgesProtoTest {
  private static Computation hierarchicalMean() {
    return Federated.computation(
        Types.parse("<float32[2]@SERVER,{float32[2]}@CLIENTS,{float32}@CLIENTS>"),
        arg -> {
          Value atEdges = Intrinsics.federatedBroadcastToEdges(arg.get(0));
          Value atClients = Intrinsics.federatedBroadcastFromEdges(atEdges);
          Value edgeMeans = Intrinsics.federatedWeightedMeanToEdges(arg.get(1), arg.get(2));
          Value edgeWeights = Intrinsics.federatedSumToEdges(arg.get(2));
          return Federated.struct(
              Intrinsics.federatedWeightedMeanFromEdges(edgeMeans, edgeWeights),
              Intrinsics.federatedSum(Federated.struct(atClients).get(0)));
        });
  }

  @Test
  void toBytes_edgesComputation_roundTripsWithEdgesUri() throws Exception {
    BuildingBlock block = hierarchicalMean().block();
    var proto = ComputationProtos.toProto(block);
    assertThat(proto.toString()).contains("uri: \"edges\"")
        .contains("federated_broadcast_to_edges").contains("federated_weighted_mean_from_edges");
    assertThat(ComputationProtos.fromBytes(proto.toByteArray(), LocalResolver.none()))
        .isEqualTo(block);
  }

  @Test
  void typeToBytes_edgesTypes_roundTrip() throws Exception {
    for (String text : new String[] {"{float32[3]}@EDGES", "<a=int32,b=int64>@EDGES",
        "({float32}@CLIENTS -> {float32}@EDGES)"}) {
      Type t = Types.parse(text);
      assertThat(TypeProtos.fromBytes(TypeProtos.toBytes(t))).isEqualTo(t);
      assertThat(TypeProtos.toProto(t).toString()).contains("uri: \"edges\"");
    }
  }

  @Test
  void fromBytes_edgesPlacementLiteral_readsBack() throws Exception {
    BuildingBlock literal = Lambda.of("x", Types.parse("int32"),
        new PlacementLiteral(Placement.EDGES));
    byte[] bytes = ComputationProtos.toBytes(literal);
    assertThat(ComputationProtos.fromBytes(bytes, LocalResolver.none())).isEqualTo(literal);
  }

  @Test
  void fromBytes_unknownPlacementUri_isStillRefused() throws Exception {
    BuildingBlock literal = new PlacementLiteral(Placement.EDGES);
    var proto = ComputationProtos.toProto(literal).toBuilder();
    proto.getPlacementBuilder().setUri("regions");
    assertThatThrownBy(() -> ComputationProtos.fromBytes(proto.build().toByteArray(),
        LocalResolver.none()))
        .isInstanceOf(MalformedComputationException.class)
        .hasMessageContaining("unknown placement uri 'regions'");
  }
}
