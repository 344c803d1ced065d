package io.tributary.flower.internal;

import io.grpc.Metadata;

/**
 * The {@code Join} request header with which a relay announces that its {@code FitRes} carry its
 * edge's aggregate update rather than a trained model.
 *
 * <p>A relay answers {@code FitIns} with the example-weighted mean of its clients' updates
 * (trained minus sent parameters) and their total example count: the server takes those tensors
 * as the update as they are, without subtracting the parameters it sent, which in float32 would
 * round the update away from the value the edge computed. Without the header a client is an
 * ordinary client. The header grants nothing a client does not already have: any client chooses
 * its answer's tensors freely.
 */
public final class EdgeHeader {
  /** {@code tributary-edge}: {@value #PARTIAL} from a relay. */
  public static final Metadata.Key<String> KEY =
      Metadata.Key.of("tributary-edge", Metadata.ASCII_STRING_MARSHALLER);
  /** The header's value: the answers are an edge's aggregate update. */
  public static final String PARTIAL = "aggregate-update";

  private EdgeHeader() {}

  /** Whether {@code headers} announce a relay. */
  public static boolean announcesRelay(Metadata headers) {
    return PARTIAL.equals(headers.get(KEY));
  }
}
