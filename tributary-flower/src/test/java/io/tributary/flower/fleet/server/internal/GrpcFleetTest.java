package io.tributary.flower.fleet.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.fleet.internal.FleetRpc;
import io.tributary.flower.fleet.internal.NodeAuth;
import io.tributary.flower.fleet.internal.proto.ActivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.DeactivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetRequest;
import io.tributary.flower.fleet.server.FleetLimits;
import io.tributary.flower.server.internal.ClientManager;
import io.tributary.flower.server.internal.Traffic;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.security.KeyPair;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The grpc-rere Fleet service behind Flower's signature check, over grpc's in-process transport:
 * an unsigned caller changes nothing, and a signed one cannot act for another node.
 */
@Timeout(30)
class GrpcFleetTest {
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final ClientManager manager = new ClientManager();
  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws Exception {
    FleetService s = new FleetService(manager, new FleetService.RunInfo(7, "p/a", "1", "00",
        new byte[0], Map.of()), new MessageApi(SerializerRegistry.load()),
        FleetLimits.defaults(), timer, new Traffic(), Optional.empty());
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).addService(GrpcFleet.service(s)).build()
        .start();
    channel = InProcessChannelBuilder.forName(name).build();
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
    timer.shutdownNow();
  }

  private FleetRpc signed(KeyPair keys) {
    return new FleetRpc(ClientInterceptors.intercept(channel, new NodeAuth(keys)), 5000);
  }

  private static long join(FleetRpc rpc, KeyPair keys) {
    ByteString pem = ByteString.copyFrom(NodeAuth.pem(keys));
    rpc.call(FleetRpc.REGISTER_NODE, RegisterNodeFleetRequest.newBuilder().setPublicKey(pem)
        .build());
    return rpc.call(FleetRpc.ACTIVATE_NODE, ActivateNodeRequest.newBuilder().setPublicKey(pem)
        .setHeartbeatInterval(30).build()).getNodeId();
  }

  @Test
  void call_unsigned_unauthenticatedAndNothingChanges() {
    FleetRpc plain = new FleetRpc(channel, 5000);
    assertThatThrownBy(() -> plain.call(FleetRpc.REGISTER_NODE, RegisterNodeFleetRequest
        .newBuilder().setPublicKey(ByteString.copyFrom(NodeAuth.pem(NodeAuth.generate())))
        .build())).isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
          assertThat(e.getStatus().getDescription()).contains("Missing authentication metadata");
        });
    assertThat(manager.size()).isZero();
  }

  @Test
  void call_signedNamingAnotherNode_unauthenticatedAndThatNodeStays() {
    KeyPair a = NodeAuth.generate();
    KeyPair b = NodeAuth.generate();
    long nodeA = join(signed(a), a);
    join(signed(b), b);
    assertThat(manager.size()).isEqualTo(2);
    assertThatThrownBy(() -> signed(b).call(FleetRpc.DEACTIVATE_NODE, DeactivateNodeRequest
        .newBuilder().setNodeId(nodeA).build())).isInstanceOfSatisfying(
            StatusRuntimeException.class, e -> assertThat(e.getStatus().getDescription())
                .contains("Invalid node ID"));
    assertThat(manager.size()).isEqualTo(2);
    signed(a).call(FleetRpc.DEACTIVATE_NODE, DeactivateNodeRequest.newBuilder()
        .setNodeId(nodeA).build());
    assertThat(manager.size()).isEqualTo(1);
  }

  @Test
  void activate_keyOtherThanTheCallers_unauthenticated() {
    KeyPair a = NodeAuth.generate();
    KeyPair b = NodeAuth.generate();
    join(signed(a), a);
    assertThatThrownBy(() -> signed(b).call(FleetRpc.ACTIVATE_NODE, ActivateNodeRequest
        .newBuilder().setPublicKey(ByteString.copyFrom(NodeAuth.pem(a)))
        .setHeartbeatInterval(30).build())).isInstanceOf(StatusRuntimeException.class)
        .hasMessageContaining("not the caller's");
  }
}
