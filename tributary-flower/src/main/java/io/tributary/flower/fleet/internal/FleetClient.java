package io.tributary.flower.fleet.internal;

import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;

/**
 * One connection to a SuperLink's Fleet API over one transport; the calls are those of
 * {@link FleetRpc}, named by its method descriptors whichever the transport.
 */
public interface FleetClient extends AutoCloseable {
  /**
   * One blocking call with a deadline.
   *
   * @throws FleetException for every failure, of the kind the node reacts to
   */
  <Q extends Message, R extends Message> R call(MethodDescriptor<Q, R> method, Q request,
      long timeoutMillis);

  /** Ends the connection; calls in flight fail with {@link FleetException.Kind#UNAVAILABLE}. */
  @Override
  void close();
}
