package io.tributary.flower.fleet.server.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;

/**
 * What Flower 1.27's {@code NodeAuthServerInterceptor} checks of every Fleet call: the node's
 * public key ({@code flwr-public-key-bin}, PEM SubjectPublicKeyInfo), an ECDSA-SHA256 signature
 * ({@code flwr-signature-bin}) of the ASCII bytes of the ISO time ({@code flwr-timestamp}), and
 * that time no more than 5 seconds ahead of the server's clock nor more than 305 seconds behind
 * it ({@code SYSTEM_TIME_TOLERANCE} and {@code TIMESTAMP_TOLERANCE}).
 */
public final class NodeSignatures {
  /** Flower's {@code SYSTEM_TIME_TOLERANCE}. */
  static final Duration AHEAD = Duration.ofSeconds(5);
  /** Flower's {@code TIMESTAMP_TOLERANCE + SYSTEM_TIME_TOLERANCE}. */
  static final Duration BEHIND = Duration.ofSeconds(305);
  private static final int MAX_KEY_BYTES = 4096;

  private NodeSignatures() {}

  /**
   * Checks one call's headers.
   *
   * @return the DER SubjectPublicKeyInfo of the caller's key
   * @throws FleetCallException (UNAUTHENTICATED) naming what is missing or wrong
   */
  public static byte[] verify(byte[] publicKeyPem, String timestamp, byte[] signature,
      Instant now) throws FleetCallException {
    if (publicKeyPem == null || timestamp == null || signature == null) {
      throw unauthenticated("Missing authentication metadata");
    }
    PublicKey key = publicKey(publicKeyPem);
    checkSignature(key, timestamp, signature);
    checkTimestamp(timestamp, now);
    return key.getEncoded();
  }

  /**
   * Checks what {@link #verify} checks but the signature itself, for a key the same connection
   * has already proven (see {@link GrpcFleet}): the headers are there and the time is in the
   * window.
   *
   * @throws FleetCallException (UNAUTHENTICATED) naming what is missing or wrong
   */
  static void checkProven(byte[] publicKeyPem, String timestamp, byte[] signature, Instant now)
      throws FleetCallException {
    if (publicKeyPem == null || timestamp == null || signature == null) {
      throw unauthenticated("Missing authentication metadata");
    }
    checkTimestamp(timestamp, now);
  }

  private static void checkSignature(PublicKey key, String timestamp, byte[] signature)
      throws FleetCallException {
    try {
      Signature v = Signature.getInstance("SHA256withECDSA");
      v.initVerify(key);
      v.update(timestamp.getBytes(StandardCharsets.US_ASCII));
      if (!v.verify(signature)) {
        throw unauthenticated("Invalid signature");
      }
    } catch (GeneralSecurityException e) {
      throw unauthenticated("Invalid signature");
    }
  }

  private static void checkTimestamp(String timestamp, Instant now) throws FleetCallException {
    Instant at;
    try {
      at = OffsetDateTime.parse(timestamp).toInstant();
    } catch (DateTimeParseException e) {
      throw unauthenticated("Invalid timestamp");
    }
    Duration diff = Duration.between(at, now);
    if (diff.compareTo(AHEAD.negated()) <= 0 || diff.compareTo(BEHIND) >= 0) {
      throw unauthenticated("Invalid timestamp");
    }
  }

  /**
   * The key of a PEM (or DER) SubjectPublicKeyInfo, as Flower's {@code bytes_to_public_key}.
   *
   * @throws FleetCallException (UNAUTHENTICATED) if it is not an EC public key
   */
  public static PublicKey publicKey(byte[] pemOrDer) throws FleetCallException {
    if (pemOrDer.length > MAX_KEY_BYTES) {
      throw unauthenticated("public key too long");
    }
    byte[] der = pemOrDer;
    String text = new String(pemOrDer, StandardCharsets.US_ASCII);
    if (text.contains("-----BEGIN PUBLIC KEY-----")) {
      int start = text.indexOf("-----BEGIN PUBLIC KEY-----") + 26;
      int end = text.indexOf("-----END PUBLIC KEY-----", start);
      if (end < 0) {
        throw unauthenticated("malformed public key PEM");
      }
      try {
        der = Base64.getMimeDecoder().decode(text.substring(start, end));
      } catch (IllegalArgumentException e) {
        throw unauthenticated("malformed public key PEM");
      }
    }
    try {
      return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw unauthenticated("not an EC public key");
    }
  }

  private static FleetCallException unauthenticated(String why) {
    return new FleetCallException(FleetCallException.Code.UNAUTHENTICATED, why);
  }
}
