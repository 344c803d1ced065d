package io.tributary.flower.fleet.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The one predicate a node asks of a failed call: did the SuperLink refuse its identity. */
class FleetExceptionTest {
  private static FleetException http(int status) {
    return HttpFleetClient.failure("http://127.0.0.1:1/api/v0/fleet/pull-messages", status,
        "application/json", "{\"detail\":\"Invalid node ID\"}".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void refusesNode_http401And403_true() {
    assertThat(http(401).refusesNode()).isTrue();
    assertThat(http(403).refusesNode()).isTrue();
  }

  @Test
  void refusesNode_grpcUnauthenticatedAndPermissionDenied_true() {
    assertThat(GrpcFleetClient.translate(Status.UNAUTHENTICATED.withDescription(
        "Invalid node ID")).refusesNode()).isTrue();
    assertThat(GrpcFleetClient.translate(Status.PERMISSION_DENIED).refusesNode()).isTrue();
  }

  @Test
  void refusesNode_otherFailures_false() {
    assertThat(http(404).refusesNode()).isFalse();
    assertThat(http(503).refusesNode()).isFalse();
    assertThat(http(500).refusesNode()).isFalse();
    assertThat(GrpcFleetClient.translate(Status.UNAVAILABLE).refusesNode()).isFalse();
    assertThat(GrpcFleetClient.translate(Status.NOT_FOUND).refusesNode()).isFalse();
  }
}
