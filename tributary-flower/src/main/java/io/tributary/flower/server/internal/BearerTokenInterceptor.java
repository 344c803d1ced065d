package io.tributary.flower.server.internal;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admits a call only with an {@code authorization: Bearer <token>} header naming one of the
 * configured tokens; any other call is closed with UNAUTHENTICATED before a handler runs, so a
 * refused client changes no server state.
 */
public final class BearerTokenInterceptor implements ServerInterceptor {
  private static final Logger LOG = LoggerFactory.getLogger(BearerTokenInterceptor.class);

  /** The standard header. */
  public static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private static final String PREFIX = "Bearer ";

  private final List<byte[]> tokens;

  /**
   * @throws IllegalArgumentException if there are no tokens or one is blank
   */
  public BearerTokenInterceptor(Set<String> tokens) {
    if (tokens.isEmpty()) {
      throw new IllegalArgumentException("bearer-token authentication needs at least one token");
    }
    this.tokens = tokens.stream().map(t -> {
      if (t.isBlank()) {
        throw new IllegalArgumentException("a bearer token cannot be blank");
      }
      return t.getBytes(StandardCharsets.UTF_8);
    }).toList();
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    String value = headers.get(AUTHORIZATION);
    if (value != null && value.startsWith(PREFIX) && known(value.substring(PREFIX.length()))) {
      return next.startCall(call, headers);
    }
    String why = value == null ? "no authorization header"
        : value.startsWith(PREFIX) ? "unknown bearer token" : "authorization is not a Bearer token";
    LOG.warn("refused a client from {}: {}", call.getAttributes()
        .get(io.grpc.Grpc.TRANSPORT_ATTR_REMOTE_ADDR), why);
    call.close(Status.UNAUTHENTICATED.withDescription(why), new Metadata());
    return new ServerCall.Listener<>() {};
  }

  private boolean known(String token) {
    byte[] given = token.strip().getBytes(StandardCharsets.UTF_8);
    boolean found = false;
    // Compare against every token in constant time, so timing tells nothing about which matched.
    for (byte[] t : tokens) {
      found |= MessageDigest.isEqual(t, given);
    }
    return found;
  }
}
