package io.tributary.flower.client.internal;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.tributary.flower.TlsSettings;
import java.io.IOException;
import java.nio.file.Files;
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
      b.trustManager(readable(tls.caFile(), "CA file").toFile());
    }
    if (tls.certFile() != null) {
      try {
        b.keyManager(readable(tls.certFile(), "certificate file").toFile(),
            readable(tls.keyFile(), "key file").toFile());
      } catch (IllegalArgumentException e) {
        throw new IOException("client certificate " + tls.certFile() + " or key " + tls.keyFile()
            + " cannot be used: " + e.getMessage(), e);
      }
    }
    return b.build();
  }

  private static Path readable(Path p, String what) throws IOException {
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
      throw new IOException("TLS " + what + " " + p + " is not a readable file");
    }
    return p;
  }
}
