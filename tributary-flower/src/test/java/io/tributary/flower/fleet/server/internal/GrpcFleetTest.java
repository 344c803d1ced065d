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
import io.tributary.flower.server.internal.InboundBudget;
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
  private String name;

  @BeforeEach
  void start() throws Exception {
    FleetService s = new FleetService(manager, new FleetService.RunInfo(7, "p/a", "1", "00",
        new byte[0], Map.of()), new MessageApi(SerializerRegistry.load()),
        FleetLimits.defaults(), timer, new Traffic(),
        new InboundBudget(InboundBudget.DEFAULT_BYTES), Optional.empty());
    String name = InProcessServerBuilder.generateName();
    InProcessServerBuilder b = InProcessServerBuilder.forName(name);
    GrpcFleet.serve(b, s);
    server = b.build().start();
    this.name = name;
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

  private static final io.grpc.Metadata.Key<byte[]> PUBLIC_KEY =
      io.grpc.Metadata.Key.of("flwr-public-key-bin", io.grpc.Metadata.BINARY_BYTE_MARSHALLER);
  private static final io.grpc.Metadata.Key<byte[]> SIGNATURE =
      io.grpc.Metadata.Key.of("flwr-signature-bin", io.grpc.Metadata.BINARY_BYTE_MARSHALLER);
  private static final io.grpc.Metadata.Key<String> TIMESTAMP =
      io.grpc.Metadata.Key.of("flwr-timestamp", io.grpc.Metadata.ASCII_STRING_MARSHALLER);

  /** Calls over {@code on} claiming {@code claimed}'s key, with a time signed by {@code signer}. */
  private static FleetRpc claiming(io.grpc.Channel on, KeyPair claimed, KeyPair signer,
      java.time.Instant at) throws Exception {
    String time = java.time.OffsetDateTime.ofInstant(at, java.time.ZoneOffset.UTC).toString();
    java.security.Signature sig = java.security.Signature.getInstance("SHA256withECDSA");
    sig.initSign(signer.getPrivate());
    sig.update(time.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    io.grpc.Metadata h = new io.grpc.Metadata();
    h.put(PUBLIC_KEY, NodeAuth.pem(claimed));
    h.put(TIMESTAMP, time);
    h.put(SIGNATURE, sig.sign());
    return new FleetRpc(ClientInterceptors.intercept(on,
        io.grpc.stub.MetadataUtils.newAttachHeadersInterceptor(h)), 5000);
  }

  private static io.tributary.flower.fleet.internal.proto.SendNodeHeartbeatRequest heartbeat(
      long node) {
    return io.tributary.flower.fleet.internal.proto.SendNodeHeartbeatRequest.newBuilder()
        .setNode(io.tributary.flower.fleet.internal.proto.Node.newBuilder().setNodeId(node))
        .setHeartbeatInterval(30).build();
  }

  @Test
  void call_keyProvenOnAnotherConnection_forgedSignatureUnauthenticated() throws Exception {
    KeyPair a = NodeAuth.generate();
    long node = join(signed(a), a);
    ManagedChannel other = InProcessChannelBuilder.forName(name).build();
    try {
      FleetRpc forged = claiming(other, a, NodeAuth.generate(), java.time.Instant.now());
      assertThatThrownBy(() -> forged.call(FleetRpc.HEARTBEAT, heartbeat(node)))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
            assertThat(e.getStatus().getDescription()).contains("Invalid signature");
          });
      // A proper signature on that connection goes through.
      assertThat(claiming(other, a, a, java.time.Instant.now()).call(FleetRpc.HEARTBEAT,
          heartbeat(node)).getSuccess()).isTrue();
    } finally {
      other.shutdownNow();
    }
  }

  @Test
  void call_keyProvenOnThisConnection_staleTimestampStillUnauthenticated() throws Exception {
    KeyPair a = NodeAuth.generate();
    long node = join(signed(a), a);
    FleetRpc stale = claiming(channel, a, a, java.time.Instant.now().minusSeconds(400));
    assertThatThrownBy(() -> stale.call(FleetRpc.HEARTBEAT, heartbeat(node)))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
            assertThat(e.getStatus().getDescription()).contains("Invalid timestamp"));
    assertThat(claiming(channel, a, a, java.time.Instant.now()).call(FleetRpc.HEARTBEAT,
        heartbeat(node)).getSuccess()).isTrue();
  }
}
