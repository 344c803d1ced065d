package io.tributary.flower.passes;

import io.tributary.core.proto.ComputationProtos;
import io.tributary.learning.LearningProcess;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The fingerprint of a learning process's round computations: {@code sha256:} and the SHA-256,
 * in lower-case hex, of the process's name and the serialized {@code federated_language.Computation}
 * messages of its {@code next} and {@code evaluate} (each length-prefixed), which the server
 * sends with a client pass and the node compares with its rebuild's.
 *
 * <p>The serialized form, not the printed one: the printer shortens literals of more than eight
 * values, so two computations differing in a long constant would print alike. The messages have
 * no map fields, so the same computation always serializes to the same bytes. A Java function is
 * serialized by its name and type only (its body does not travel), so the fingerprint covers the
 * computation's structure, types and constants, not what runs inside {@code flower_fit} or
 * another Java function (a server optimizer's step size lives in its step function, so two
 * FedAdam processes differing only in {@code eta} have one fingerprint): the spec's
 * hyperparameters travel beside it for that, and such a step runs on the server only. {@code
 * initialize} is left out: it holds the server's initial model, which a node is not sent.
 *
 * @param value {@code sha256:} and 64 lower-case hex digits
 */
public record ComputationFingerprint(String value) {
  private static final String PREFIX = "sha256:";
  private static final String DOMAIN = "tributary computation fingerprint 1";

  /**
   * Checks the form.
   *
   * @throws IllegalArgumentException when {@code value} is not {@code sha256:} and 64 lower-case
   *     hex digits
   */
  public ComputationFingerprint {
    Objects.requireNonNull(value, "value");
    if (!value.matches("sha256:[0-9a-f]{64}")) {
      throw new IllegalArgumentException("a computation fingerprint is 'sha256:' and 64 "
          + "lower-case hex digits, got '" + (value.length() <= 80 ? value
              : value.substring(0, 80) + "...(" + value.length() + " chars)") + "'");
    }
  }

  /**
   * The fingerprint of {@code process}'s {@code next} and {@code evaluate}.
   *
   * @throws io.tributary.core.compiler.TypeCheckException when a computation is not well typed
   */
  public static ComputationFingerprint of(LearningProcess process) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.write(DOMAIN.getBytes(StandardCharsets.US_ASCII));
      byte[] name = process.name().getBytes(StandardCharsets.UTF_8);
      out.writeInt(name.length);
      out.write(name);
      for (var c : java.util.List.of(process.next(), process.evaluate())) {
        byte[] message = ComputationProtos.toBytes(c.block());
        out.writeInt(message.length);
        out.write(message);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      return new ComputationFingerprint(PREFIX + HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray())));
    } catch (NoSuchAlgorithmException e) {
      // Every Java platform provides SHA-256.
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return value;
  }
}
