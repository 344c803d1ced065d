package io.tributary.flower.server.internal;

import io.grpc.InsecureServerCredentials;
import io.grpc.ServerBuilder;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.tributary.flower.internal.FlowerRpc;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.server.ServerMemory;
import io.tributary.flower.server.TlsFiles;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** Builds the gRPC server: transport, credentials, message limits and interceptors. */
public final class GrpcServers {
  private GrpcServers() {}

  /**
   * A Netty server builder for the configured address, with TLS (and client certificates) when
   * configured, and the configured stream window: below 8 MiB fixed, since gRPC would grow it
   * with its estimate of the bandwidth and let every client waiting to be read hold more of its
   * answer in the server's direct memory; from 8 MiB left to gRPC's own tuning, which never
   * grows a window past 8 MiB, so 8 MiB per client bounds it either way.
   *
   * @throws IOException if a TLS file cannot be read or holds no usable PEM
   */
  public static ServerBuilder<?> netty(ServerConfig config) throws IOException {
    return netty(config.host(), config.port(), config.tls(), config.flowControlWindow());
  }

  /**
   * A Netty server builder for {@code host:port}, with TLS when {@code tls} is given, and the
   * stream window {@code window} as {@link #netty(ServerConfig)} applies it (fixed below 8 MiB,
   * gRPC's tuning from 8 MiB).
   *
   * @throws IOException if a TLS file cannot be read or holds no usable PEM
   */
  public static ServerBuilder<?> netty(String host, int port,
      java.util.Optional<TlsFiles> tls, int window) throws IOException {
    NettyServerBuilder b = nettyBuilder(host, port, tls);
    return window < ServerMemory.MAX_DEFAULT_WINDOW_BYTES ? b.flowControlWindow(window) : b;
  }

  /**
   * A Netty server builder for {@code host:port}, with TLS (and client certificates) when
   * {@code tls} is given.
   *
   * @throws IOException if a TLS file cannot be read or holds no usable PEM
   */
  public static ServerBuilder<?> netty(String host, int port,
      java.util.Optional<TlsFiles> tls) throws IOException {
    return nettyBuilder(host, port, tls);
  }

  private static NettyServerBuilder nettyBuilder(String host, int port,
      java.util.Optional<TlsFiles> tls) throws IOException {
    ServerCredentials credentials = tls.isPresent()
        ? tls(tls.get()) : InsecureServerCredentials.create();
    try {
      return NettyServerBuilder.forAddress(new InetSocketAddress(host, port), credentials);
    } catch (IllegalArgumentException | IllegalStateException e) {
      // Such as PEM blocks whose contents do not parse: grpc reads them here.
      throw new IOException("unusable TLS files " + tls.map(t -> t.certChain() + ", "
          + t.privateKey()).orElse("") + ": " + e.getMessage(), e);
    }
  }

  private static ServerCredentials tls(TlsFiles files) throws IOException {
    files.requireReadable();
    TlsServerCredentials.Builder b = TlsServerCredentials.newBuilder();
    try {
      b.keyManager(files.certChain().toFile(), files.privateKey().toFile());
      if (files.clientCa().isPresent()) {
        b.trustManager(files.clientCa().get().toFile());
        b.clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("unusable TLS files: " + e.getMessage(), e);
    }
    return b.build();
  }

  /**
   * Adds the Join service behind its interceptors to {@code builder} and sets the message
   * limit. Authentication runs first, then negotiation, so a refused client reaches neither.
   */
  public static void configure(ServerBuilder<?> builder, ServerConfig config, JoinService join,
      List<String> tensorTypes) {
    configure(builder, config.maxMessageSize(), config.tokens(), join, tensorTypes);
  }

  /**
   * Like {@link #configure(ServerBuilder, ServerConfig, JoinService, List)}, for a Join service
   * that is not a server's (a relay's clients' side).
   */
  public static void configure(ServerBuilder<?> builder, int maxMessageSize,
      java.util.Set<String> tokens, JoinService join, List<String> tensorTypes) {
    builder.maxInboundMessageSize(maxMessageSize);
    List<ServerInterceptor> interceptors = new ArrayList<>();
    interceptors.add(new TensorTypeInterceptor(tensorTypes));
    if (!tokens.isEmpty()) {
      // grpc calls the last interceptor of the list first.
      interceptors.add(new BearerTokenInterceptor(tokens));
    }
    builder.addService(ServerInterceptors.intercept(FlowerRpc.service(join), interceptors));
  }
}
