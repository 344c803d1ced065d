package io.tributary.flower.fleet.internal;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * What Flower's {@code NodeAuthClientInterceptor} adds to every Fleet call, and what a 1.27
 * SuperLink demands of every one: the node's public key (PEM SubjectPublicKeyInfo, header
 * {@code flwr-public-key-bin}), the current time in ISO format ({@code flwr-timestamp}) and an
 * ECDSA-SHA256 signature of that time's ASCII bytes ({@code flwr-signature-bin}). A SuperNode
 * without configured keys uses a fresh SECP384R1 pair, as Flower's does, and registers its public
 * key itself.
 */
public final class NodeAuth implements ClientInterceptor {
  static final Metadata.Key<byte[]> PUBLIC_KEY =
      Metadata.Key.of("flwr-public-key-bin", Metadata.BINARY_BYTE_MARSHALLER);
  static final Metadata.Key<byte[]> SIGNATURE =
      Metadata.Key.of("flwr-signature-bin", Metadata.BINARY_BYTE_MARSHALLER);
  static final Metadata.Key<String> TIMESTAMP =
      Metadata.Key.of("flwr-timestamp", Metadata.ASCII_STRING_MARSHALLER);
  private static final DateTimeFormatter ISO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");

  private final KeyPair keys;
  private final byte[] publicKeyPem;

  public NodeAuth(KeyPair keys) {
    this.keys = keys;
    this.publicKeyPem = pem(keys);
  }

  /** A fresh SECP384R1 key pair, as Flower's {@code generate_key_pairs}. */
  public static KeyPair generate() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp384r1"));
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no EC key support", e);
    }
  }

  /** The public key as Flower sends it: PEM of the SubjectPublicKeyInfo. */
  public static byte[] pem(KeyPair keys) {
    String b64 = Base64.getMimeEncoder(64, new byte[] {'\n'})
        .encodeToString(keys.getPublic().getEncoded());
    return ("-----BEGIN PUBLIC KEY-----\n" + b64 + "\n-----END PUBLIC KEY-----\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  public byte[] publicKeyPem() {
    return publicKeyPem.clone();
  }

  /** The HTTP header names of Flower 1.40+'s Fleet API node authentication. */
  public static final String HTTP_PUBLIC_KEY = "flwr-public-key";
  public static final String HTTP_TIMESTAMP = "flwr-timestamp";
  public static final String HTTP_SIGNATURE = "flwr-signature";

  /**
   * The authentication headers of one HTTP call, signed now: {@code flwr-public-key} (base64 of
   * the PEM), {@code flwr-timestamp} (UTC ISO-8601 with {@code +00:00}) and
   * {@code flwr-signature} (base64 of the ECDSA-SHA256 DER signature of the timestamp's ASCII).
   */
  public java.util.Map<String, String> httpHeaders() {
    String now = OffsetDateTime.now(ZoneOffset.UTC).format(ISO);
    Base64.Encoder b64 = Base64.getEncoder();
    return java.util.Map.of(HTTP_PUBLIC_KEY, b64.encodeToString(publicKeyPem),
        HTTP_TIMESTAMP, now,
        HTTP_SIGNATURE, b64.encodeToString(sign(now.getBytes(StandardCharsets.US_ASCII))));
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method,
      CallOptions options, Channel next) {
    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
      @Override
      public void start(Listener<R> listener, Metadata headers) {
        String now = OffsetDateTime.now(ZoneOffset.UTC).format(ISO);
        headers.put(PUBLIC_KEY, publicKeyPem);
        headers.put(TIMESTAMP, now);
        headers.put(SIGNATURE, sign(now.getBytes(StandardCharsets.US_ASCII)));
        super.start(listener, headers);
      }
    };
  }

  /**
   * Whether {@code keys}' private key signs what its public key verifies, tried with a signature
   * of a fixed message; false also when either key is not an EC key the JDK can use.
   */
  public static boolean isPair(KeyPair keys) {
    byte[] message = "tributary node key check".getBytes(StandardCharsets.US_ASCII);
    try {
      Signature s = Signature.getInstance("SHA256withECDSA");
      s.initSign(keys.getPrivate());
      s.update(message);
      byte[] signature = s.sign();
      Signature v = Signature.getInstance("SHA256withECDSA");
      v.initVerify(keys.getPublic());
      v.update(message);
      return v.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private byte[] sign(byte[] message) {
    try {
      Signature s = Signature.getInstance("SHA256withECDSA");
      s.initSign(keys.getPrivate());
      s.update(message);
      return s.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign", e);
    }
  }
}
