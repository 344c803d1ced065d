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
 * ECDSA-SHA256 signature of that time's ASCII bytes ({@code flwr-signature-bin}), the same signed
 * time for up to 5 seconds ({@link #REUSE_NANOS}). A SuperNode
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

  /**
   * How long one signed timestamp is sent again before a new one is signed: a SuperLink accepts a
   * timestamp up to 305 s old (Flower 1.27), and a signature covers only the time, so signing
   * each of the many calls of one message (about 1 ms each with SECP384R1) buys nothing.
   */
  static final long REUSE_NANOS = 5_000_000_000L;

  private final KeyPair keys;
  private final byte[] publicKeyPem;
  private record Signed(long atNanos, String timestamp, byte[] signature) {}
  private volatile Signed last;

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
    Signed signed = signedNow();
    Base64.Encoder b64 = Base64.getEncoder();
    return java.util.Map.of(HTTP_PUBLIC_KEY, b64.encodeToString(publicKeyPem),
        HTTP_TIMESTAMP, signed.timestamp(),
        HTTP_SIGNATURE, b64.encodeToString(signed.signature()));
  }

  /** The current time and its signature, signed anew once the last is {@link #REUSE_NANOS} old. */
  private Signed signedNow() {
    long t = System.nanoTime();
    Signed s = last;
    if (s == null || t - s.atNanos() >= REUSE_NANOS) {
      String now = OffsetDateTime.now(ZoneOffset.UTC).format(ISO);
      s = new Signed(t, now, sign(now.getBytes(StandardCharsets.US_ASCII)));
      last = s;
    }
    return s;
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method,
      CallOptions options, Channel next) {
    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
      @Override
      public void start(Listener<R> listener, Metadata headers) {
        Signed signed = signedNow();
        headers.put(PUBLIC_KEY, publicKeyPem);
        headers.put(TIMESTAMP, signed.timestamp());
        headers.put(SIGNATURE, signed.signature());
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
