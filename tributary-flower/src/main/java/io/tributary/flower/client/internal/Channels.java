package io.tributary.flower.client.internal;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.tributary.flower.TlsSettings;
import io.tributary.flower.internal.Pem;
import java.io.IOException;
import java.nio.file.Path;

/** Makes the channel a client runner owns: plaintext, TLS or mutual TLS. */
public final class Channels {
  private Channels() {}

  /**
   * A channel to {@code target} ({@code host:port} or any gRPC target string).
   *
   * @param tls null for plaintext
   * @throws IOException naming a TLS file that cannot be read or parsed
   */
  public static ManagedChannel open(String target, TlsSettings tls, int maxMessageSize)
      throws IOException {
    ChannelCredentials credentials = tls == null ? InsecureChannelCredentials.create()
        : credentials(tls);
    return Grpc.newChannelBuilder(target, credentials)
        .maxInboundMessageSize(maxMessageSize)
        .build();
  }

  private static ChannelCredentials credentials(TlsSettings tls) throws IOException {
    TlsChannelCredentials.Builder b = TlsChannelCredentials.newBuilder();
    if (tls.caFile() != null) {
      b.trustManager(readable(tls.caFile(), "CA file", Pem.Kind.CERTIFICATES).toFile());
    }
    if (tls.certFile() != null) {
      try {
        b.keyManager(readable(tls.certFile(), "certificate file", Pem.Kind.CERTIFICATES).toFile(),
            readable(tls.keyFile(), "key file", Pem.Kind.PRIVATE_KEY).toFile());
      } catch (IllegalArgumentException e) {
        throw new IOException("client certificate " + tls.certFile() + " or key " + tls.keyFile()
            + " cannot be used: " + e.getMessage(), e);
      }
    }
    return b.build();
  }

  private static Path readable(Path p, String what, Pem.Kind kind) throws IOException {
    String problem = Pem.problem(p, kind);
    if (problem != null) {
      throw new IOException("TLS " + what + " " + p + " " + problem);
    }
    return p;
  }
}
