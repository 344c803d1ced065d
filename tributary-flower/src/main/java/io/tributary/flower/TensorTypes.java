package io.tributary.flower;

import io.grpc.Metadata;
import java.util.ArrayList;
import java.util.List;

/**
 * FEP-0002 tensor-type negotiation over gRPC metadata.
 *
 * <p>A client lists the {@code tensor_type}s it reads, most preferred first, in the
 * {@value #HEADER_NAME} request header of its {@code Join} stream. The server answers in the
 * same-named response header with the one it will send that client: the first of the client's
 * list that it supports. A client that sends no header, as Python Flower does, gets
 * {@value #DEFAULT}, the only format a NumPyClient reads. Each {@code Parameters} message still
 * names its own {@code tensor_type}, so either side decodes whatever it is sent.
 */
public final class TensorTypes {
  /** The metadata key. */
  public static final String HEADER_NAME = "flwr-tensor-types";

  /** The key as grpc-java metadata. */
  public static final Metadata.Key<String> HEADER =
      Metadata.Key.of(HEADER_NAME, Metadata.ASCII_STRING_MARSHALLER);

  /** What a peer that announces nothing gets. */
  public static final String DEFAULT = "numpy.ndarray";

  /** At most this many types are read from a header; more is a hostile or broken peer. */
  public static final int MAX_TYPES = 32;

  private TensorTypes() {}

  /** The header value for a list of types. */
  public static String format(List<String> types) {
    for (String t : types) {
      if (t.isEmpty() || t.contains(",") || !t.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
        throw new IllegalArgumentException("not a valid tensor type for a header: '" + t + "'");
      }
    }
    return String.join(",", types);
  }

  /** The types in a header value, in order, blanks dropped, at most {@link #MAX_TYPES}. */
  public static List<String> parse(String header) {
    List<String> out = new ArrayList<>();
    if (header == null) {
      return out;
    }
    for (String t : header.split(",", MAX_TYPES + 1)) {
      String s = t.strip();
      if (!s.isEmpty() && out.size() < MAX_TYPES) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * The type to send a client: the first of {@code announced} that {@code supported} has, or
   * {@link #DEFAULT} when the client announced nothing.
   *
   * @throws IllegalArgumentException if the client announced types and none is supported
   */
  public static String choose(List<String> announced, List<String> supported) {
    if (announced.isEmpty()) {
      return DEFAULT;
    }
    for (String t : announced) {
      if (supported.contains(t)) {
        return t;
      }
    }
    throw new IllegalArgumentException("the client reads only " + announced
        + ", and this server writes " + supported);
  }
}
