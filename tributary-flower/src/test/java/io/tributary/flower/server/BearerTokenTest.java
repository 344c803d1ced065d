package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Metadata;
import io.grpc.Status;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bearer tokens are checked before a client is registered. */
class BearerTokenTest {
  static Metadata header(String value) {
    Metadata m = new Metadata();
    if (value != null) {
      m.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), value);
    }
    return m;
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Bearer wrong", "Basic czNjcmV0", "Bearer s3cre", "s3cret"})
  void join_withoutAValidToken_refusedUnauthenticatedAndNothingRegistered(String value)
      throws Exception {
    try (Harness h = new Harness(Harness.config().tokens(Set.of("s3cret", "other")).build())) {
      FakeClient c = h.client(header(value.isEmpty() ? null : value), Behaviours.honest(1, 1));
      Status s = c.closed.get(5, TimeUnit.SECONDS);
      assertThat(s.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
      assertThat(c.received).isEmpty();
      assertThat(h.server.connectedClients()).isEmpty();
    }
  }

  @Test
  void join_withAValidToken_registers() throws Exception {
    try (Harness h = new Harness(Harness.config().tokens(Set.of("s3cret", "other")).build())) {
      FakeClient c = h.client(FakeClient.bearer("other"), Behaviours.honest(1, 1));
      h.awaitClients(1);
      assertThat(c.closed).isNotDone();
    }
  }
}
